import { z } from 'zod';
import {
  ZAdminSetupRequest,
  ZAdminSetupStatusRequest,
  ZAuthUser,
  ZEmailRequest,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZLoginResult,
  ZRefreshTokenRequest,
  ZRegisterRequest,
  ZRegisterResult,
  ZResetPasswordRequest,
  ZTokenPair,
  ZVerifyOtpRequest,
} from '../../../shared/schemas/auth.ts';
import { ZMessageResult } from '../../../shared/schemas/common.ts';
import { authedProcedure, createRouter, publicProcedure } from '../../trpc/init.ts';
import { adminSetupStatus, setupAdmin } from './admin-setup.service.ts';
import {
  forgotPassword,
  login,
  logout,
  refreshSession,
  register,
  resendVerification,
  resetPassword,
  sessionUserToAuthUser,
  verifyEmail,
} from './auth.service.ts';

export const authRouter = createRouter({
  register: publicProcedure
    .input(ZRegisterRequest)
    .output(ZRegisterResult)
    .mutation(({ ctx, input }) => register(ctx.deps, input, ctx.ip)),
  verifyOtp: publicProcedure
    .input(ZVerifyOtpRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => verifyEmail(ctx.deps, input)),
  resendOtp: publicProcedure
    .input(ZEmailRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => resendVerification(ctx.deps, input, ctx.ip)),
  login: publicProcedure
    .input(ZLoginRequest)
    .output(ZLoginResult)
    .mutation(({ ctx, input }) => login(ctx.deps, input, ctx.ip)),
  adminLogin: publicProcedure
    .input(ZLoginRequest)
    .output(ZLoginResult)
    .mutation(({ ctx, input }) => login(ctx.deps, input, ctx.ip, { adminOnly: true })),
  refresh: publicProcedure
    .input(ZRefreshTokenRequest)
    .output(ZTokenPair)
    .mutation(({ ctx, input }) => refreshSession(ctx.deps, input.refreshToken)),
  logout: publicProcedure
    .input(ZRefreshTokenRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => logout(ctx.deps, input.refreshToken)),
  forgotPassword: publicProcedure
    .input(ZForgotPasswordRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => forgotPassword(ctx.deps, input, ctx.ip)),
  resetPassword: publicProcedure
    .input(ZResetPasswordRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => resetPassword(ctx.deps, input)),
  /** The signed-in user, read from the database now (approval may have changed since login). */
  me: authedProcedure.output(ZAuthUser).query(({ ctx }) => sessionUserToAuthUser(ctx.user)),
  adminSetupStatus: publicProcedure
    .input(ZAdminSetupStatusRequest)
    .output(z.object({ valid: z.boolean() }))
    .query(({ ctx, input }) => adminSetupStatus(ctx.deps, input.token)),
  setupAdmin: publicProcedure
    .input(ZAdminSetupRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => setupAdmin(ctx.deps, input)),
});

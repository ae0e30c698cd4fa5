import { z } from 'zod';
import {
  ZAdminSetupRequest,
  ZAdminSetupStatusRequest,
  ZAuthUser,
  ZBrowserLoginResult,
  ZEmailRequest,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZRegisterRequest,
  ZRegisterResult,
  ZResetPasswordRequest,
  ZVerifyOtpRequest,
} from '../../../shared/schemas/auth.ts';
import { ZMessageResult } from '../../../shared/schemas/common.ts';
import { authedProcedure, createRouter, publicProcedure } from '../../trpc/init.ts';
import { adminSetupStatus, setupAdmin } from './admin-setup.service.ts';
import {
  forgotPassword,
  login,
  register,
  resendVerification,
  resetPassword,
  sessionUserToAuthUser,
  verifyEmail,
} from './auth.service.ts';
import { keepRefreshTokenInCookie } from './browser-session.ts';

export const authRouter = createRouter({
  register: publicProcedure
    .input(ZRegisterRequest)
    .output(ZRegisterResult)
    .mutation(({ ctx, input }) => register(ctx.deps, input, ctx.ip)),
  verifyOtp: publicProcedure
    .input(ZVerifyOtpRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => verifyEmail(ctx.deps, input, ctx.ip)),
  resendOtp: publicProcedure
    .input(ZEmailRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => resendVerification(ctx.deps, input, ctx.ip)),
  // The browser's logins: the refresh token goes into its cookie; renewing and ending the session
  // are POST /api/session/refresh and /logout (browser-session.routes.ts).
  login: publicProcedure
    .input(ZLoginRequest)
    .output(ZBrowserLoginResult)
    .mutation(async ({ ctx, input }) => keepRefreshTokenInCookie(await login(ctx.deps, input, ctx.ip), ctx.setCookie, ctx.deps.env)),
  adminLogin: publicProcedure
    .input(ZLoginRequest)
    .output(ZBrowserLoginResult)
    .mutation(async ({ ctx, input }) =>
      keepRefreshTokenInCookie(await login(ctx.deps, input, ctx.ip, { adminOnly: true }), ctx.setCookie, ctx.deps.env),
    ),
  forgotPassword: publicProcedure
    .input(ZForgotPasswordRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => forgotPassword(ctx.deps, input, ctx.ip)),
  resetPassword: publicProcedure
    .input(ZResetPasswordRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => resetPassword(ctx.deps, input, ctx.ip)),
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

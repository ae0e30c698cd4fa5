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
import {
  ZBrowserLoginAnswer,
  ZChallengeRequest,
  ZConfirmTotpRequest,
  ZEnrolledLoginResult,
  ZPasskeyRegistrationRequest,
  ZSecondFactorRequest,
  ZTotpEnrolment,
  ZWebAuthnOptions,
  type TSecondFactorChallenge,
} from '../../../shared/schemas/second-factor.ts';
import { authedProcedure, createRouter, publicProcedure } from '../../trpc/init.ts';
import { adminSetupStatus, setupAdmin } from './admin-setup.service.ts';
import {
  completeSecondFactor,
  confirmTotpAtSignIn,
  enrolTotpAtSignIn,
  passkeyEnrolmentOptions,
  passkeySignIn,
  registerPasskeyAtSignIn,
  type TLoginSession,
  forgotPassword,
  login,
  register,
  resendVerification,
  resetPassword,
  sessionUserToAuthUser,
  verifyEmail,
} from './auth.service.ts';
import { keepRefreshTokenInCookie } from './browser-session.ts';
import type { TrpcContext } from '../../trpc/context.ts';

/** A login's session goes into the cookie; a second-factor challenge is answered as it is. */
function inCookie(result: TLoginSession | TSecondFactorChallenge, ctx: Pick<TrpcContext, 'setCookie' | 'deps'>) {
  return 'secondFactorRequired' in result ? result : keepRefreshTokenInCookie(result, ctx.setCookie, ctx.deps.env);
}

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
  // Either answers a session or, for someone who needs a second factor, its challenge (no session yet).
  login: publicProcedure
    .input(ZLoginRequest)
    .output(ZBrowserLoginAnswer)
    .mutation(async ({ ctx, input }) => inCookie(await login(ctx.deps, input, ctx.ip), ctx)),
  adminLogin: publicProcedure
    .input(ZLoginRequest)
    .output(ZBrowserLoginAnswer)
    .mutation(async ({ ctx, input }) => inCookie(await login(ctx.deps, input, ctx.ip, { adminOnly: true }), ctx)),
  // The second step of a sign-in, with the login's challenge token.
  secondFactor: publicProcedure
    .input(ZSecondFactorRequest)
    .output(ZBrowserLoginResult)
    .mutation(async ({ ctx, input }) => keepRefreshTokenInCookie(await completeSecondFactor(ctx.deps, input, ctx.ip), ctx.setCookie, ctx.deps.env)),
  passkeySignInOptions: publicProcedure
    .input(ZChallengeRequest)
    .output(ZWebAuthnOptions)
    .mutation(({ ctx, input }) => passkeySignIn(ctx.deps, input)),
  // A member of staff without a factor sets one up before the session starts.
  enrolTotp: publicProcedure
    .input(ZChallengeRequest)
    .output(ZTotpEnrolment)
    .mutation(({ ctx, input }) => enrolTotpAtSignIn(ctx.deps, input)),
  confirmTotp: publicProcedure
    .input(ZConfirmTotpRequest)
    .output(ZEnrolledLoginResult)
    .mutation(async ({ ctx, input }) => keepRefreshTokenInCookie(await confirmTotpAtSignIn(ctx.deps, input, ctx.ip), ctx.setCookie, ctx.deps.env)),
  passkeyEnrolmentOptions: publicProcedure
    .input(ZChallengeRequest)
    .output(ZWebAuthnOptions)
    .mutation(({ ctx, input }) => passkeyEnrolmentOptions(ctx.deps, input)),
  registerPasskey: publicProcedure
    .input(ZPasskeyRegistrationRequest)
    .output(ZEnrolledLoginResult)
    .mutation(async ({ ctx, input }) => keepRefreshTokenInCookie(await registerPasskeyAtSignIn(ctx.deps, input, ctx.ip), ctx.setCookie, ctx.deps.env)),
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

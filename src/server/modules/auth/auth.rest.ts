import type { FastifyPluginAsync } from 'fastify';
import {
  ZEmailRequest,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZRefreshTokenRequest,
  ZRegisterRequest,
  ZResetPasswordRequest,
  ZVerifyOtpRequest,
} from '../../../shared/schemas/auth.ts';
import { fromSpecRegistration, REGISTRATION_SPEC_NAMES, toSpecFieldErrors, withSpecId } from '../../../shared/spec-fields.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { renamingFields } from '../../lib/errors.ts';
import { parseInput } from '../../lib/validation.ts';
import { z } from 'zod';
import { ZRestSecondFactorRequest, ZSecondFactorChallenge } from '../../../shared/schemas/second-factor.ts';
import {
  completeSecondFactor,
  type TLoginSession,
  forgotPassword,
  login,
  logout,
  refreshSession,
  register,
  resendVerification,
  resetPassword,
  verifyEmail,
} from './auth.service.ts';

/** The spec's login answer (its user's id spelled `_id`). */
const ZRestLoginResult = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: z.object({ _id: z.string(), name: z.string(), email: z.string(), role: z.string() }),
});
/** The login's answers: the spec's, or a second factor to give (POST /api/user/login/second-factor). */
const ZRestLoginAnswer = z.union([ZRestLoginResult, ZSecondFactorChallenge]);

/** The spec's Authentication calls (section 7), with its paths and spellings (forgotPasssword). */
export const authRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  const loginBody = (result: TLoginSession) => {
    const { id, name, email, role } = result.user;
    return { accessToken: result.accessToken, refreshToken: result.refreshToken, user: withSpecId({ id, name, email, role }) };
  };

  // A learner's answer is the spec's. Staff (and learners who turned a second factor on) get 200
  // with `secondFactorRequired`, a challenge token and the ways to give it: no tokens yet.
  api.post('/user/login', doc({ summary: 'Log in: an access token, a refresh token and the user; or, when a second factor is needed, a challenge for POST /api/user/login/second-factor.', access: 'public', tag: 'Authentication', body: ZLoginRequest, answer: ZRestLoginAnswer, answers: { 401: 'Wrong e-mail or password.', 403: 'The e-mail is not verified yet.', 429: 'Too many attempts: try again after Retry-After seconds.' } }), async (request) => {
    const result = await login(deps, parseInput(ZLoginRequest, request.body), request.ip);
    return 'secondFactorRequired' in result ? result : loginBody(result);
  });

  api.post('/user/login/second-factor', doc({ summary: 'The second step of a login: the challenge token and a 6-digit code from the authenticator app (or a recovery code). Answers what the login answers.', access: 'public', tag: 'Authentication', body: ZRestSecondFactorRequest, answer: ZRestLoginResult, answers: { 400: 'No code given.', 401: 'The code is wrong, or the challenge has expired or was used (log in again).', 429: 'Too many wrong codes: try again after Retry-After seconds.' } }), async (request) => {
    const input = parseInput(ZRestSecondFactorRequest, request.body);
    // Six digits are an app's code; anything else is taken for a recovery code.
    const compact = input.code.replace(/\s+/g, '');
    const factor = /^\d{6}$/.test(compact) ? { code: compact } : { recoveryCode: input.code };
    return loginBody(await completeSecondFactor(deps, { challengeToken: input.challengeToken, ...factor }, request.ip));
  });

  // The spec's registration says `tittle` for the prefix; its refusals name the fields that way too.
  api.post('/user/register', doc({ summary: 'Create a learner account; a verification code is mailed.', access: 'public', tag: 'Authentication', created: true, body: ZRegisterRequest, wireNames: REGISTRATION_SPEC_NAMES, answers: { 409: 'The e-mail is already registered.', 429: 'Too many attempts.' } }), async (request, reply) => {
    const result = await renamingFields(
      (fields) => toSpecFieldErrors(REGISTRATION_SPEC_NAMES, fields),
      async () => register(deps, parseInput(ZRegisterRequest, fromSpecRegistration(request.body)), request.ip),
    );
    return reply.status(201).send(result);
  });

  api.post('/user/refresh-token', doc({ summary: 'A new token pair for a refresh token (the old one is used up).', access: 'public', tag: 'Authentication', body: ZRefreshTokenRequest, answers: { 401: 'The refresh token is not valid.' } }), async (request) => {
    const session = await refreshSession(deps, parseInput(ZRefreshTokenRequest, request.body).refreshToken);
    return { accessToken: session.accessToken, refreshToken: session.refreshToken };
  });

  api.post('/user/logout', doc({ summary: 'End the session of a refresh token.', access: 'public', tag: 'Authentication', body: ZRefreshTokenRequest }), async (request): Promise<TMessageResult> => {
    const { message } = await logout(deps, parseInput(ZRefreshTokenRequest, request.body).refreshToken);
    return { message };
  });

  api.post('/user/verify-otp', doc({ summary: 'Verify an e-mail address with the mailed code.', access: 'public', tag: 'Authentication', body: ZVerifyOtpRequest }), async (request) => verifyEmail(deps, parseInput(ZVerifyOtpRequest, request.body), request.ip));

  api.post('/user/resend-otp', doc({ summary: 'Mail a new verification code.', access: 'public', tag: 'Authentication', body: ZEmailRequest, answers: { 429: 'Too many codes requested.' } }), async (request) =>
    resendVerification(deps, parseInput(ZEmailRequest, request.body), request.ip),
  );

  api.post('/user/forgotPasssword', doc({ summary: 'Mail a password reset code.', access: 'public', tag: 'Authentication', body: ZForgotPasswordRequest, answers: { 429: 'Too many codes requested.' } }), async (request) =>
    forgotPassword(deps, parseInput(ZForgotPasswordRequest, request.body), request.ip),
  );

  api.post('/user/resetPassword', doc({ summary: 'Set a new password with the mailed code.', access: 'public', tag: 'Authentication', body: ZResetPasswordRequest }), async (request) =>
    resetPassword(deps, parseInput(ZResetPasswordRequest, request.body), request.ip),
  );
};

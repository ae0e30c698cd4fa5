import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZEmailRequest,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZRefreshTokenRequest,
  ZRegisterRequest,
  type TRegisterRequest,
  ZResetPasswordRequest,
  ZVerifyOtpRequest,
} from '../../../shared/schemas/auth.ts';
import { fromSpecRegistration, REGISTRATION_SPEC_NAMES, toSpecFieldErrors, withSpecId } from '../../../shared/spec-fields.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import type { AppDeps } from '../../deps.ts';
import { DONE, refusals, wireSpelled } from '../../lib/rest-schema.ts';
import { renamingFields } from '../../lib/errors.ts';
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

/**
 * The registration as the spec sends it (`tittle` for the prefix): the same checks as the form's,
 * naming fields as the request does, and then the clear names the service takes.
 */
const ZSpecRegisterRequest = wireSpelled(ZRegisterRequest, REGISTRATION_SPEC_NAMES).transform(
  // The checks above are ZRegisterRequest's own: what passed them is its output, renamed.
  (body) => fromSpecRegistration(body) as TRegisterRequest,
);

/** The spec's Authentication calls (section 7), with its paths and spellings (forgotPasssword). */
export const authRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  const loginBody = (result: TLoginSession) => {
    const { id, name, email, role } = result.user;
    return { accessToken: result.accessToken, refreshToken: result.refreshToken, user: withSpecId({ id, name, email, role }) };
  };

  // A learner's answer is the spec's. Staff (and learners who turned a second factor on) get 200
  // with `secondFactorRequired`, a challenge token and the ways to give it: no tokens yet.
  api.post('/user/login', { config: { access: 'public' }, schema: { summary: 'Log in: an access token, a refresh token and the user; or, when a second factor is needed, a challenge for POST /api/user/login/second-factor.', tags: ['Authentication'], body: ZLoginRequest, response: { 200: ZRestLoginAnswer, ...refusals({ 401: 'Wrong e-mail or password.', 403: 'The e-mail is not verified yet.', 429: 'Too many attempts: try again after Retry-After seconds.' }) } } }, async (request) => {
    const result = await login(deps, request.body, request.ip);
    return 'secondFactorRequired' in result ? result : loginBody(result);
  });

  api.post('/user/login/second-factor', { config: { access: 'public' }, schema: { summary: 'The second step of a login: the challenge token and a 6-digit code from the authenticator app (or a recovery code). Answers what the login answers.', tags: ['Authentication'], body: ZRestSecondFactorRequest, response: { 200: ZRestLoginResult, ...refusals({ 400: 'No code given.', 401: 'The code is wrong, or the challenge has expired or was used (log in again).', 429: 'Too many wrong codes: try again after Retry-After seconds.' }) } } }, async (request) => {
    const input = request.body;
    // Six digits are an app's code; anything else is taken for a recovery code.
    const compact = input.code.replace(/\s+/g, '');
    const factor = /^\d{6}$/.test(compact) ? { code: compact } : { recoveryCode: input.code };
    return loginBody(await completeSecondFactor(deps, { challengeToken: input.challengeToken, ...factor }, request.ip));
  });

  // The spec's registration says `tittle` for the prefix; its refusals name the fields that way too.
  api.post('/user/register', { config: { access: 'public' }, schema: { summary: 'Create a learner account; a verification code is mailed.', tags: ['Authentication'], body: ZSpecRegisterRequest, response: { 201: DONE, ...refusals({ 409: 'The e-mail is already registered.', 429: 'Too many attempts.' }) } } }, async (request, reply) => {
    const result = await renamingFields(
      (fields) => toSpecFieldErrors(REGISTRATION_SPEC_NAMES, fields),
      async () => register(deps, request.body, request.ip),
    );
    return reply.status(201).send(result);
  });

  api.post('/user/refresh-token', { config: { access: 'public' }, schema: { summary: 'A new token pair for a refresh token (the old one is used up).', tags: ['Authentication'], body: ZRefreshTokenRequest, response: { ...refusals({ 401: 'The refresh token is not valid.' }) } } }, async (request) => {
    const session = await refreshSession(deps, request.body.refreshToken);
    return { accessToken: session.accessToken, refreshToken: session.refreshToken };
  });

  api.post('/user/logout', { config: { access: 'public' }, schema: { summary: 'End the session of a refresh token.', tags: ['Authentication'], body: ZRefreshTokenRequest } }, async (request): Promise<TMessageResult> => {
    const { message } = await logout(deps, request.body.refreshToken);
    return { message };
  });

  api.post('/user/verify-otp', { config: { access: 'public' }, schema: { summary: 'Verify an e-mail address with the mailed code.', tags: ['Authentication'], body: ZVerifyOtpRequest } }, async (request) => verifyEmail(deps, request.body, request.ip));

  api.post('/user/resend-otp', { config: { access: 'public' }, schema: { summary: 'Mail a new verification code.', tags: ['Authentication'], body: ZEmailRequest, response: { ...refusals({ 429: 'Too many codes requested.' }) } } }, async (request) =>
    resendVerification(deps, request.body, request.ip),
  );

  api.post('/user/forgotPasssword', { config: { access: 'public' }, schema: { summary: 'Mail a password reset code.', tags: ['Authentication'], body: ZForgotPasswordRequest, response: { ...refusals({ 429: 'Too many codes requested.' }) } } }, async (request) =>
    forgotPassword(deps, request.body, request.ip),
  );

  api.post('/user/resetPassword', { config: { access: 'public' }, schema: { summary: 'Set a new password with the mailed code.', tags: ['Authentication'], body: ZResetPasswordRequest } }, async (request) =>
    resetPassword(deps, request.body, request.ip),
  );
};

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
import { fromSpecRegistration, REGISTRATION_SPEC_NAMES, toSpecFieldErrors } from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { renamingFields } from '../../lib/errors.ts';
import { parseInput } from '../../lib/validation.ts';
import {
  forgotPassword,
  login,
  logout,
  refreshSession,
  register,
  resendVerification,
  resetPassword,
  verifyEmail,
} from './auth.service.ts';

/** The spec's Authentication calls (section 7), with its paths and spellings (forgotPasssword). */
export const authRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.post('/user/login', async (request) => {
    const result = await login(deps, parseInput(ZLoginRequest, request.body), request.ip);
    const { id, name, email, role } = result.user;
    return { accessToken: result.accessToken, refreshToken: result.refreshToken, user: { _id: id, name, email, role } };
  });

  // The spec's registration says `tittle` for the prefix; its refusals name the fields that way too.
  api.post('/user/register', async (request, reply) => {
    const result = await renamingFields(
      (fields) => toSpecFieldErrors(REGISTRATION_SPEC_NAMES, fields),
      async () => register(deps, parseInput(ZRegisterRequest, fromSpecRegistration(request.body)), request.ip),
    );
    return reply.status(201).send(result);
  });

  api.post('/user/refresh-token', async (request) => {
    const session = await refreshSession(deps, parseInput(ZRefreshTokenRequest, request.body).refreshToken);
    return { accessToken: session.accessToken, refreshToken: session.refreshToken };
  });

  api.post('/user/logout', async (request) => logout(deps, parseInput(ZRefreshTokenRequest, request.body).refreshToken));

  api.post('/user/verify-otp', async (request) => verifyEmail(deps, parseInput(ZVerifyOtpRequest, request.body)));

  api.post('/user/resend-otp', async (request) =>
    resendVerification(deps, parseInput(ZEmailRequest, request.body), request.ip),
  );

  api.post('/user/forgotPasssword', async (request) =>
    forgotPassword(deps, parseInput(ZForgotPasswordRequest, request.body), request.ip),
  );

  api.post('/user/resetPassword', async (request) =>
    resetPassword(deps, parseInput(ZResetPasswordRequest, request.body)),
  );
};

import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages.ts';
import type { TSessionUser } from './session-user.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the /api scope's authentication hook from the bearer token, or null. */
    user: TSessionUser | null;
  }
}

export function requireUser(request: FastifyRequest): TSessionUser {
  if (!request.user) throw new AppError('UNAUTHORIZED', MESSAGES.common.unauthorized);
  return request.user;
}

export function requireAdmin(request: FastifyRequest): TSessionUser {
  const user = requireUser(request);
  if (user.role !== 'admin') throw new AppError('FORBIDDEN', MESSAGES.common.forbidden);
  return user;
}

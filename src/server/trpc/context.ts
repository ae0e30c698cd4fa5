import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps.ts';
import { resolveSessionUser } from '../modules/users/session.service.ts';
import type { TCookie } from '../lib/cookies.ts';
import type { TSessionUser } from '../lib/session-user.ts';

export type TrpcContext = {
  deps: AppDeps;
  user: TSessionUser | null;
  ip: string;
  requestId: string;
  /** Adds a Set-Cookie header to the answer (the login's refresh cookie). */
  setCookie: (cookie: TCookie) => void;
};

export function createContextFactory(deps: AppDeps) {
  return async ({ req, res }: CreateFastifyContextOptions): Promise<TrpcContext> => ({
    deps,
    user: await resolveSessionUser(deps, req.headers.authorization),
    ip: req.ip,
    requestId: String(req.id),
    setCookie: (cookie) => void res.setCookie(cookie.name, cookie.value, cookie.options),
  });
}

import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps.ts';
import { resolveSessionUser } from '../modules/users/session.service.ts';
import type { TSessionUser } from '../lib/session-user.ts';

export type TrpcContext = {
  deps: AppDeps;
  user: TSessionUser | null;
  ip: string;
  requestId: string;
  /** Adds a Set-Cookie header to the answer (the login's refresh cookie). */
  setCookie: (cookie: string) => void;
};

export function createContextFactory(deps: AppDeps) {
  return async ({ req, res }: CreateFastifyContextOptions): Promise<TrpcContext> => ({
    deps,
    user: await resolveSessionUser(deps, req.headers.authorization),
    ip: req.ip,
    requestId: String(req.id),
    // Fastify appends each set-cookie rather than replacing the last.
    setCookie: (cookie) => void res.header('set-cookie', cookie),
  });
}

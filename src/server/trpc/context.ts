import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps.ts';
import { resolveSessionUser } from '../modules/users/session.service.ts';
import type { TSessionUser } from '../lib/session-user.ts';

export type TrpcContext = {
  deps: AppDeps;
  user: TSessionUser | null;
  ip: string;
  requestId: string;
};

export function createContextFactory(deps: AppDeps) {
  return async ({ req }: CreateFastifyContextOptions): Promise<TrpcContext> => ({
    deps,
    user: await resolveSessionUser(deps, req.headers.authorization),
    ip: req.ip,
    requestId: String(req.id),
  });
}

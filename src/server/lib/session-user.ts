import type { TRole } from '../../shared/constants.ts';

/**
 * The caller behind a request, as the session check (modules/users/session.service.ts) reads it
 * from the database on every authenticated call. Both edges, tRPC and REST, hand it to services.
 */
export type TSessionUser = {
  id: string;
  email: string;
  name: string;
  role: TRole;
  verified: boolean;
  approved: boolean;
  /** The session (refresh-token family) the call came with; what ends it ends its stream passes too. */
  sessionId?: string;
};

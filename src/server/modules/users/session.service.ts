import type { TRole } from '../../../shared/constants.ts';
import type { AppDeps } from '../../deps.ts';
import { verifyAccessToken } from '../../lib/tokens.ts';
import { findSessionUserById } from './users.repository.ts';

export type TSessionUser = {
  id: string;
  email: string;
  name: string;
  role: TRole;
  verified: boolean;
  approved: boolean;
};

/**
 * The user behind an `Authorization: Bearer` header, or null. The token only names the user: role,
 * verification and approval are read from the database, so a change takes effect at once.
 */
export async function resolveSessionUser(
  deps: Pick<AppDeps, 'db' | 'jwtSecret'>,
  authorization: string | undefined,
): Promise<TSessionUser | null> {
  const match = authorization?.match(/^Bearer ([A-Za-z0-9._-]+)$/);
  if (!match?.[1]) return null;
  const claims = verifyAccessToken(match[1], deps.jwtSecret);
  if (!claims) return null;
  const user = await findSessionUserById(deps.db, claims.sub);
  if (!user) return null;
  return {
    id: user.id,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`.trim(),
    role: user.role,
    verified: user.verifiedAt !== null,
    approved: user.approvedAt !== null,
  };
}

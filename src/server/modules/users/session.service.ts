import type { AppDeps } from '../../deps.ts';
import { personName } from '../../../shared/names.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { verifyAccessToken } from '../../lib/tokens.ts';
import { findSessionUser } from './users.repository.ts';

/**
 * The user behind an `Authorization: Bearer` header, or null. The token only names the user: role,
 * verification and approval are read from the database, so a change takes effect at once, and a
 * token bound to a session that has ended is refused.
 */
export async function resolveSessionUser(
  deps: Pick<AppDeps, 'db' | 'jwtSecret'>,
  authorization: string | undefined,
): Promise<TSessionUser | null> {
  const match = authorization?.match(/^Bearer ([A-Za-z0-9._-]+)$/);
  if (!match?.[1]) return null;
  const claims = verifyAccessToken(match[1], deps.jwtSecret);
  if (!claims) return null;
  // Logout, a password reset or a reused refresh token end the session's access tokens at once.
  const user = await findSessionUser(deps.db, claims.sub, claims.sid, new Date());
  if (!user?.sessionLive) return null;
  return {
    id: user.id,
    email: user.email,
    name: personName(user),
    role: user.role,
    verified: user.verifiedAt !== null,
    approved: user.approvedAt !== null,
    ...(claims.sid ? { sessionId: claims.sid } : {}),
  };
}

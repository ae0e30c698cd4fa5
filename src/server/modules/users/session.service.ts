import type { AppDeps } from '../../deps.ts';
import { personName } from '../../../shared/names.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { verifyAccessToken } from '../../lib/tokens.ts';
import { findSessionUser } from './users.repository.ts';

/** Thrown inside the grant's load when the session is over: a refusal is never kept. */
class SessionOver extends Error {}

/**
 * The user behind an `Authorization: Bearer` header, or null. The token only names the user: role,
 * verification and approval are read from the database, so a change takes effect at once, and a
 * token bound to a session that has ended is refused.
 *
 * The answer is kept a moment (decision 060: `accessGrants`, SESSION_CHECK_SECONDS), so the calls a
 * learner makes one after another ask the database once; every change to what it holds revokes it
 * at once, in every process (revokeSessionChecks): logout, a password reset, a reused refresh
 * token, an approval, a promotion (no session exists before verification: login refuses it).
 * The token's signature and expiry are checked on every call.
 */
export async function resolveSessionUser(
  deps: Pick<AppDeps, 'db' | 'jwtSecret' | 'accessGrants'>,
  authorization: string | undefined,
): Promise<TSessionUser | null> {
  const match = authorization?.match(/^Bearer ([A-Za-z0-9._-]+)$/);
  if (!match?.[1]) return null;
  const claims = verifyAccessToken(match[1], deps.jwtSecret);
  if (!claims) return null;
  const sessionId = claims.sid;
  try {
    return await deps.accessGrants.remember<TSessionUser>(
      `session/${claims.sub}/${sessionId ?? ''}/${claims.mf ?? ''}`,
      async () => {
        // Logout, a password reset or a reused refresh token end the session's access tokens at once.
        const user = await findSessionUser(deps.db, claims.sub, sessionId, new Date());
        // A deactivated member of staff has no session left (decision 067).
        if (!user || user.deactivatedAt !== null || (sessionId && user.sessionEndsAt === null)) throw new SessionOver();
        return {
          grant: Object.freeze({
            id: user.id,
            email: user.email,
            name: personName(user),
            role: user.role,
            staffRole: user.staffRole,
            verified: user.verifiedAt !== null,
            approved: user.approvedAt !== null,
            ...(sessionId ? { sessionId } : {}),
            secondFactor: claims.mf ?? null,
          }),
          tags: { userId: user.id, sessionId: sessionId ?? '' },
          ...(sessionId && user.sessionEndsAt !== null ? { endsAt: user.sessionEndsAt } : {}),
        };
      },
      'session',
    );
  } catch (error) {
    if (error instanceof SessionOver) return null;
    throw error;
  }
}

/**
 * Ends at once the session checks kept for the scope, in every process (and the stream grants
 * with them): called after a change to what a session check answers has committed.
 */
export function revokeSessionChecks(deps: Pick<AppDeps, 'accessGrants'>, scope: { userId: string } | { sessionId: string }): Promise<void> {
  return deps.accessGrants.revoke(scope);
}

import { sessionClient } from '@/lib/auth-client.ts';
import { readRefreshToken } from '@/lib/session-store.ts';
import { clearStoredSession } from '@/lib/session.ts';

/** How long signing out waits for the server to revoke the session before forgetting it anyway. */
const REVOKE_TIMEOUT_MS = 3_000;

/**
 * Revokes the stored refresh token's session at the server, then clears storage. The session is
 * forgotten in this browser even when the server cannot be reached.
 */
export async function logOut(): Promise<void> {
  const refreshToken = readRefreshToken();
  if (refreshToken) {
    const abort = new AbortController();
    const timer = window.setTimeout(() => abort.abort(), REVOKE_TIMEOUT_MS);
    try {
      await sessionClient.auth.logout.mutate({ refreshToken }, { signal: abort.signal });
    } catch {
      // Unreachable, or already revoked: nothing more to do here.
    } finally {
      window.clearTimeout(timer);
    }
  }
  clearStoredSession();
}

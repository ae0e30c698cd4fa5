import { readClaims } from '@/lib/session/access-token.ts';
import { removeSentRecords } from '@/lib/offline/watch-records.ts';
import { endSession } from '@/lib/session/session-calls.ts';
import { clearStoredSession, readAccessToken } from '@/lib/session/session.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';

/** How long signing out waits for the server to revoke the session before forgetting it anyway. */
const REVOKE_TIMEOUT_MS = 3_000;

/**
 * Revokes the session of the browser's refresh cookie at the server (which clears the cookie), then
 * clears storage. The session is forgotten in this browser even when the server cannot be reached;
 * the logout is then sent before any other call once a link returns (lib/session/session-calls.ts), so no
 * one renews it meanwhile. The learner's data kept on the device for offline use goes too (the
 * service worker stays: it is the site's and holds nothing of anyone's).
 */
export async function logOut(): Promise<void> {
  const userId = readStoredUser()?._id;
  const token = readAccessToken();
  const sessionId = token ? readClaims(token)?.sid : undefined;
  const abort = new AbortController();
  const timer = window.setTimeout(() => abort.abort(), REVOKE_TIMEOUT_MS);
  try {
    await endSession(sessionId, abort.signal);
  } finally {
    window.clearTimeout(timer);
  }
  clearStoredSession();
  // After the session is cleared: the cache writes only for the signed-in user, so none can follow.
  if (userId) {
    await import('@/lib/pwa/query-persistence.ts')
      .then(({ forgetPersistedQueries }) => forgetPersistedQueries(userId))
      .catch(() => undefined);
    // Offline watching the server has answered goes; watching still waiting to be sent stays on the
    // device, this learner's alone (never shown to another), and is sent at their next login.
    await removeSentRecords(userId).catch(() => undefined);
  }
}

import { endSession } from '@/lib/session-calls.ts';
import { clearStoredSession } from '@/lib/session.ts';

/** How long signing out waits for the server to revoke the session before forgetting it anyway. */
const REVOKE_TIMEOUT_MS = 3_000;

/**
 * Revokes the session of the browser's refresh cookie at the server (which clears the cookie), then
 * clears storage. The session is forgotten in this browser even when the server cannot be reached.
 */
export async function logOut(): Promise<void> {
  const abort = new AbortController();
  const timer = window.setTimeout(() => abort.abort(), REVOKE_TIMEOUT_MS);
  try {
    await endSession(abort.signal);
  } catch {
    // Unreachable: nothing more to do here.
  } finally {
    window.clearTimeout(timer);
  }
  clearStoredSession();
}

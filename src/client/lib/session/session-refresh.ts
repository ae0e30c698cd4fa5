import { isExpired } from '@/lib/session/access-token.ts';
import { renewSession } from '@/lib/session/session-calls.ts';
import { readAccessToken } from '@/lib/session/session.ts';
import { canRenewSession, expireSession, storeSession } from '@/lib/session/session-store.ts';

/** A token this close to expiry is treated as expired, so a request does not lapse in flight. */
export const EXPIRY_MARGIN_MS = 5_000;

let inFlight: Promise<string | null> | null = null;

/**
 * Renews the session with the refresh cookie and returns the new access token, or null.
 * Single-flight: requests that fail together share one renewal (each rotates the refresh token,
 * and the server takes an old one coming back after its successor was used for theft, ending the
 * session). Tabs coordinate through a Web Lock, and a tab that finds the access token already
 * renewed by another simply uses it.
 * No refresh cookie, or a refusal by the server, clears the session and sends the user to log in;
 * no answer (offline, the server failing) leaves the session alone (being offline should not sign
 * anyone out) and answers null.
 */
export function refreshAccessToken(): Promise<string | null> {
  inFlight ??= refreshOnce().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function refreshOnce(): Promise<string | null> {
  if (!canRenewSession()) {
    // Nothing to renew with: the session is over.
    expireSession();
    return null;
  }
  const seen = readAccessToken();
  const renew = () => renewUnlessDone(seen);
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request('portal-session-refresh', renew) : renew();
}

async function renewUnlessDone(seen: string | null): Promise<string | null> {
  if (!canRenewSession()) {
    expireSession();
    return null;
  }
  const access = readAccessToken();
  if (access && access !== seen && !isExpired(access, EXPIRY_MARGIN_MS)) return access;
  const renewal = await renewSession();
  if (renewal.outcome === 'renewed') {
    storeSession(renewal.accessToken);
    return renewal.accessToken;
  }
  if (renewal.outcome === 'refused') expireSession();
  return null;
}

import { serverAnswered } from '@/lib/api-errors.ts';
import { isExpired } from '@/lib/access-token.ts';
import { sessionClient } from '@/lib/auth-client.ts';
import { readAccessToken } from '@/lib/session.ts';
import { expireSession, readRefreshToken, storeSession } from '@/lib/session-store.ts';

/** A token this close to expiry is treated as expired, so a request does not lapse in flight. */
export const EXPIRY_MARGIN_MS = 5_000;

let inFlight: Promise<string | null> | null = null;

/**
 * Exchanges the stored refresh token for a new pair and returns the new access token, or null.
 * Single-flight: requests that fail together share one refresh call (the server rotates refresh
 * tokens and treats a second use of the same one as theft, ending the session). Tabs coordinate
 * through a Web Lock, and a tab that finds the token already rotated by another simply uses it.
 * No refresh token, or a refusal by the server, clears the session and sends the user to log in; a network failure
 * leaves the session alone (being offline should not sign anyone out) and answers null.
 */
export function refreshAccessToken(): Promise<string | null> {
  inFlight ??= refreshOnce().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function refreshOnce(): Promise<string | null> {
  const seen = readRefreshToken();
  if (!seen) {
    // Nothing to refresh with: the session is over.
    expireSession();
    return null;
  }
  const rotate = () => rotateUnlessDone(seen);
  return typeof navigator !== 'undefined' && navigator.locks
    ? navigator.locks.request('portal-session-refresh', rotate)
    : rotate();
}

async function rotateUnlessDone(seen: string): Promise<string | null> {
  const current = readRefreshToken();
  if (!current) {
    expireSession();
    return null;
  }
  const access = readAccessToken();
  if (current !== seen && access && !isExpired(access, EXPIRY_MARGIN_MS)) return access;
  try {
    const pair = await sessionClient.auth.refresh.mutate({ refreshToken: current });
    storeSession(pair);
    return pair.accessToken;
  } catch (error) {
    if (serverAnswered(error)) expireSession();
    return null;
  }
}

import { BROWSER_SESSION_PATH, SESSION_CALL_HEADER } from '../../../shared/constants.ts';
import { PENDING_LOGOUT_KEY, readStored } from '@/lib/session/session.ts';

/*
 * The calls that renew and end the session (decision 015). The refresh token never passes through
 * script: it lives in an HttpOnly cookie the browser sends only to BROWSER_SESSION_PATH. These are
 * plain fetches, not tRPC calls through the session link: they must never wait on, or trigger,
 * another refresh.
 */

function post(action: 'refresh' | 'logout', signal?: AbortSignal, body?: Record<string, string>): Promise<Response> {
  return fetch(`${BROWSER_SESSION_PATH}/${action}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      [SESSION_CALL_HEADER.name]: SESSION_CALL_HEADER.value,
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
    signal,
  });
}

/**
 * How a renewal ended. `renewed`: a new access token (the cookie was rotated too). `refused`: the
 * server turned the session down (expired, revoked, no cookie). `unreachable`: no usable answer
 * (offline, or the server failing or restarting), so the session may still be good.
 */
export type TRenewal = { outcome: 'renewed'; accessToken: string } | { outcome: 'refused' } | { outcome: 'unreachable' };

/**
 * Trades the refresh cookie for a new access token. Never throws. Never while a logout is waiting:
 * that is sent first, and a session it could not end yet is not renewed.
 */
export async function renewSession(): Promise<TRenewal> {
  if (!(await sendPendingLogout())) return { outcome: 'unreachable' };
  let response: Response;
  try {
    response = await post('refresh');
  } catch {
    return { outcome: 'unreachable' };
  }
  if (response.status >= 400 && response.status < 500) return { outcome: 'refused' };
  if (!response.ok) return { outcome: 'unreachable' };
  const body: unknown = await response.json().catch(() => undefined);
  const accessToken = body && typeof body === 'object' && 'accessToken' in body ? body.accessToken : undefined;
  return typeof accessToken === 'string' && accessToken ? { outcome: 'renewed', accessToken } : { outcome: 'unreachable' };
}

/**
 * Ends the session at the server, which also clears the cookie: the logout is written down first
 * (PENDING_LOGOUT_KEY), so one that finds no link is sent before any other call once there is one
 * (sendPendingLogout). `sessionId` names the session meant (the access token's `sid`). Resolves
 * whether the server has it.
 */
export function endSession(sessionId: string | undefined, signal?: AbortSignal): Promise<boolean> {
  try {
    localStorage.setItem(PENDING_LOGOUT_KEY, sessionId ?? '');
  } catch {
    // Storage switched off: the logout is sent now or not at all.
  }
  pending = null;
  return sendPendingLogout(signal);
}

let pending: Promise<boolean> | null = null;

/** The waits between tries while the browser says it has a link but the logout cannot get through. */
const RESEND_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
let resendTimer: number | undefined;

/**
 * Sends the waiting logout now that there is a link (the app opening, the link returning): after a
 * try still under way (begun before the link returned, so bound to fail), not merged into it; then
 * again, less and less often, while the browser says it is online and the logout still cannot get
 * through (a ship's link comes back in stages). Going offline stops the tries; the next 'online'
 * starts them again.
 */
export function resendPendingLogout(attempt = 0): Promise<boolean> {
  window.clearTimeout(resendTimer);
  return (pending ?? Promise.resolve(false))
    .then(() => sendPendingLogout())
    .then((sent) => {
      if (!sent && navigator.onLine) {
        const delay = RESEND_DELAYS_MS[Math.min(attempt, RESEND_DELAYS_MS.length - 1)];
        resendTimer = window.setTimeout(() => void resendPendingLogout(attempt + 1), delay);
      }
      return sent;
    });
}

/**
 * Sends the logout waiting in this browser, if any (single-flight), and forgets it once the server
 * has answered. Resolves true when nothing is waiting any more, false when it could not be sent
 * (no link, or the server failing). The service worker also replays a logout that found no link
 * (Background Sync, build/service-worker.ts); the session id makes the second copy harmless.
 */
export function sendPendingLogout(signal?: AbortSignal): Promise<boolean> {
  const sessionId = readStored(PENDING_LOGOUT_KEY);
  if (sessionId === null) return Promise.resolve(true);
  pending ??= post('logout', signal, sessionId ? { sessionId } : undefined)
    .then((response) => {
      if (response.status >= 500) return false;
      // Answered: ended, or nothing left to end. A newer logout written meanwhile stays.
      if (readStored(PENDING_LOGOUT_KEY) === sessionId) localStorage.removeItem(PENDING_LOGOUT_KEY);
      return true;
    })
    .catch(() => false)
    .finally(() => {
      pending = null;
    });
  return pending;
}

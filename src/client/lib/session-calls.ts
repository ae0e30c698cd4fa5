import { BROWSER_SESSION_PATH, SESSION_CALL_HEADER } from '../../shared/constants.ts';

/*
 * The calls that renew and end the session (decision 015). The refresh token never passes through
 * script: it lives in an HttpOnly cookie the browser sends only to BROWSER_SESSION_PATH. These are
 * plain fetches, not tRPC calls through the session link: they must never wait on, or trigger,
 * another refresh.
 */

function post(action: 'refresh' | 'logout', signal?: AbortSignal): Promise<Response> {
  return fetch(`${BROWSER_SESSION_PATH}/${action}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { [SESSION_CALL_HEADER.name]: SESSION_CALL_HEADER.value, Accept: 'application/json' },
    signal,
  });
}

/**
 * How a renewal ended. `renewed`: a new access token (the cookie was rotated too). `refused`: the
 * server turned the session down (expired, revoked, no cookie). `unreachable`: no usable answer
 * (offline, or the server failing or restarting), so the session may still be good.
 */
export type TRenewal = { outcome: 'renewed'; accessToken: string } | { outcome: 'refused' } | { outcome: 'unreachable' };

/** Trades the refresh cookie for a new access token. Never throws. */
export async function renewSession(): Promise<TRenewal> {
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

/** Ends the cookie's session at the server, which also clears the cookie. Rejects when unreachable. */
export async function endSession(signal?: AbortSignal): Promise<void> {
  await post('logout', signal);
}

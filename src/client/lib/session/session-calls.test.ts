import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession, renewSession, resendPendingLogout, sendPendingLogout } from '@/lib/session/session-calls.ts';
import { PENDING_LOGOUT_KEY } from '@/lib/session/session.ts';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const answer = (status: number, body: unknown) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('renewSession', () => {
  it('posts to the session path with the cookie and the portal’s header, and answers the new access token', async () => {
    fetchMock.mockResolvedValue(answer(200, { accessToken: 'access-2' }));
    await expect(renewSession()).resolves.toEqual({ outcome: 'renewed', accessToken: 'access-2' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/session/refresh');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'portal' } });
    expect(init?.body).toBeUndefined();
  });

  it('tells a refusal (4xx) from no usable answer (offline, 5xx, a body without a token)', async () => {
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Your session has expired. Please log in again.' }));
    await expect(renewSession()).resolves.toEqual({ outcome: 'refused' });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(renewSession()).resolves.toEqual({ outcome: 'unreachable' });
    fetchMock.mockResolvedValueOnce(answer(503, { message: 'The server is restarting.' }));
    await expect(renewSession()).resolves.toEqual({ outcome: 'unreachable' });
    fetchMock.mockResolvedValueOnce(answer(200, '<html>proxy page</html>'));
    await expect(renewSession()).resolves.toEqual({ outcome: 'unreachable' });
  });
});

const SESSION_ID = '0b6f3f8e-5d1c-4a57-9a39-2f4c1d7e8a90';
const offline = () => new TypeError('Failed to fetch');

describe('endSession', () => {
  it('posts the session it ends to the logout path, with the cookie and the portal’s header, and forgets it once answered', async () => {
    fetchMock.mockResolvedValue(answer(200, { message: 'You have been logged out.' }));
    const abort = new AbortController();
    await expect(endSession(SESSION_ID, abort.signal)).resolves.toBe(true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/session/logout');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'portal' }, signal: abort.signal });
    expect(JSON.parse(String(init?.body))).toEqual({ sessionId: SESSION_ID });
    expect(localStorage.getItem(PENDING_LOGOUT_KEY)).toBeNull();
  });

  it('keeps a logout that found no link (or a failing server), and sends it before any renewal once there is one', async () => {
    fetchMock.mockRejectedValueOnce(offline());
    await expect(endSession(SESSION_ID)).resolves.toBe(false);
    expect(localStorage.getItem(PENDING_LOGOUT_KEY)).toBe(SESSION_ID);
    fetchMock.mockResolvedValueOnce(answer(502, '<html>bad gateway</html>'));
    await expect(sendPendingLogout()).resolves.toBe(false);
    expect(localStorage.getItem(PENDING_LOGOUT_KEY)).toBe(SESSION_ID);

    // Still no link: the renewal is not even tried.
    fetchMock.mockRejectedValueOnce(offline());
    await expect(renewSession()).resolves.toEqual({ outcome: 'unreachable' });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/session/logout', '/api/session/logout', '/api/session/logout']);

    // The link is back: the logout goes first, and the renewal after it finds the session ended.
    fetchMock.mockResolvedValueOnce(answer(200, { message: 'You have been logged out.' }));
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Your session has expired. Please log in again.' }));
    await expect(renewSession()).resolves.toEqual({ outcome: 'refused' });
    expect(fetchMock.mock.calls.slice(3).map(([url]) => url)).toEqual(['/api/session/logout', '/api/session/refresh']);
    expect(localStorage.getItem(PENDING_LOGOUT_KEY)).toBeNull();
  });

  it('sends a waiting logout once however many calls ask at the same moment', async () => {
    localStorage.setItem(PENDING_LOGOUT_KEY, SESSION_ID);
    fetchMock.mockResolvedValue(answer(200, { message: 'You have been logged out.' }));
    await expect(Promise.all([sendPendingLogout(), sendPendingLogout(), sendPendingLogout()])).resolves.toEqual([true, true, true]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(sendPendingLogout()).resolves.toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends no session id when the token had none, and the server ends the cookie’s session', async () => {
    fetchMock.mockResolvedValue(answer(200, { message: 'You have been logged out.' }));
    await endSession(undefined);
    expect(fetchMock.mock.calls[0]![1]?.body).toBeUndefined();
  });
});

describe('resendPendingLogout', () => {
  it('tries again after a try begun before the link returned, instead of sharing its failure', async () => {
    localStorage.setItem(PENDING_LOGOUT_KEY, SESSION_ID);
    let failFirst!: (error: Error) => void;
    fetchMock.mockImplementationOnce(() => new Promise((_, reject) => (failFirst = reject)));
    fetchMock.mockResolvedValueOnce(answer(200, { message: 'You have been logged out.' }));
    const first = sendPendingLogout();
    const again = resendPendingLogout();
    failFirst(offline());
    await expect(first).resolves.toBe(false);
    await expect(again).resolves.toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem(PENDING_LOGOUT_KEY)).toBeNull();
  });

  it('keeps trying, less and less often, while the browser says it is online, and stops once offline', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem(PENDING_LOGOUT_KEY, SESSION_ID);
      const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      fetchMock.mockRejectedValue(offline());
      await expect(resendPendingLogout()).resolves.toBe(false);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetchMock).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(fetchMock).toHaveBeenCalledTimes(3);

      // The link gets through on the next try: the logout is forgotten and the tries stop.
      fetchMock.mockResolvedValue(answer(200, { message: 'You have been logged out.' }));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(fetchMock).toHaveBeenCalledTimes(4);
      expect(localStorage.getItem(PENDING_LOGOUT_KEY)).toBeNull();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fetchMock).toHaveBeenCalledTimes(4);

      // Offline: one try, then none until the link returns.
      localStorage.setItem(PENDING_LOGOUT_KEY, SESSION_ID);
      fetchMock.mockRejectedValue(offline());
      online.mockReturnValue(false);
      await expect(resendPendingLogout()).resolves.toBe(false);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fetchMock).toHaveBeenCalledTimes(5);
    } finally {
      vi.useRealTimers();
    }
  });
});

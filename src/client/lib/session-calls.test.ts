import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endSession, renewSession } from '@/lib/session-calls.ts';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
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

describe('endSession', () => {
  it('posts to the logout path with the cookie and the portal’s header', async () => {
    fetchMock.mockResolvedValue(answer(200, { message: 'You have been logged out.' }));
    const abort = new AbortController();
    await endSession(abort.signal);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/session/logout');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'portal' }, signal: abort.signal });
  });
});

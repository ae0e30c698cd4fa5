import { TRPCClientError } from '@trpc/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionClient } from '@/lib/auth-client.ts';
import { refreshAccessToken } from '@/lib/session-refresh.ts';
import { SESSION_EXPIRED_EVENT } from '@/lib/session.ts';
import { tokenExpiringIn } from '@/testing/fake-xhr.ts';

vi.mock('@/lib/auth-client.ts', () => ({ sessionClient: { auth: { refresh: { mutate: vi.fn() } } } }));
const mutate = vi.mocked(sessionClient.auth.refresh.mutate);

const EXPIRED = tokenExpiringIn(-60);
const FRESH = tokenExpiringIn(900);

/** A refused refresh, as tRPC reports an answer from the server. */
function refusal(httpStatus: number) {
  return new TRPCClientError('Session expired', {
    result: { error: { message: 'Session expired', code: -32001, data: { httpStatus } } },
  });
}

function stored() {
  return {
    access: localStorage.getItem('accessToken'),
    refresh: localStorage.getItem('refreshToken'),
    user: localStorage.getItem('user'),
  };
}

let expiredEvents = 0;
const countExpired = () => {
  expiredEvents += 1;
};

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('accessToken', EXPIRED);
  localStorage.setItem('refreshToken', 'refresh-1');
  localStorage.setItem('user', JSON.stringify({ _id: 'u1', name: 'Kavya Menon', email: 'kavya@example.com', role: 'learner' }));
  mutate.mockReset();
  expiredEvents = 0;
  window.addEventListener(SESSION_EXPIRED_EVENT, countExpired);
});

afterEach(() => {
  window.removeEventListener(SESSION_EXPIRED_EVENT, countExpired);
  vi.unstubAllGlobals();
});

describe('refreshAccessToken', () => {
  it('exchanges the refresh token for a new pair, keeps it, and answers the new access token', async () => {
    mutate.mockResolvedValue({ accessToken: FRESH, refreshToken: 'refresh-2' });
    await expect(refreshAccessToken()).resolves.toBe(FRESH);
    expect(mutate).toHaveBeenCalledWith({ refreshToken: 'refresh-1' });
    expect(stored()).toMatchObject({ access: FRESH, refresh: 'refresh-2' });
    expect(expiredEvents).toBe(0);
  });

  it('refreshes once for calls that fail together: a second use of a refresh token would end the session', async () => {
    let answer!: (pair: { accessToken: string; refreshToken: string }) => void;
    mutate.mockReturnValue(new Promise((resolve) => (answer = resolve)));

    const together = [refreshAccessToken(), refreshAccessToken(), refreshAccessToken()];
    answer({ accessToken: FRESH, refreshToken: 'refresh-2' });
    await expect(Promise.all(together)).resolves.toEqual([FRESH, FRESH, FRESH]);
    expect(mutate).toHaveBeenCalledTimes(1);

    // Once settled, the next expiry gets its own refresh, with the rotated token.
    const later = tokenExpiringIn(1_800);
    mutate.mockResolvedValue({ accessToken: later, refreshToken: 'refresh-3' });
    await expect(refreshAccessToken()).resolves.toBe(later);
    expect(mutate).toHaveBeenCalledTimes(2);
    expect(mutate).toHaveBeenLastCalledWith({ refreshToken: 'refresh-2' });
  });

  it('ends the session when the server refuses the refresh token', async () => {
    mutate.mockRejectedValue(refusal(401));
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(stored()).toEqual({ access: null, refresh: null, user: null });
    expect(expiredEvents).toBe(1);
  });

  it('leaves the session alone when the server cannot be reached (offline is not logged out)', async () => {
    mutate.mockRejectedValue(new TRPCClientError('Failed to fetch'));
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(stored()).toMatchObject({ access: EXPIRED, refresh: 'refresh-1' });
    expect(expiredEvents).toBe(0);
  });

  it('ends the session without asking the server when no refresh token is stored', async () => {
    localStorage.removeItem('refreshToken');
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(mutate).not.toHaveBeenCalled();
    expect(stored().access).toBeNull();
    expect(expiredEvents).toBe(1);
  });

  it('uses the token another tab has just rotated instead of rotating it again', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        // The other tab held the lock and rotated the session meanwhile.
        request: async (_name: string, rotate: () => Promise<string | null>) => {
          localStorage.setItem('refreshToken', 'refresh-from-other-tab');
          localStorage.setItem('accessToken', FRESH);
          return rotate();
        },
      },
    });
    await expect(refreshAccessToken()).resolves.toBe(FRESH);
    expect(mutate).not.toHaveBeenCalled();
    expect(stored()).toMatchObject({ access: FRESH, refresh: 'refresh-from-other-tab' });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renewSession, type TRenewal } from '@/lib/session/session-calls.ts';
import { refreshAccessToken } from '@/lib/session/session-refresh.ts';
import { SESSION_EXPIRED_EVENT } from '@/lib/session/session.ts';
import { tokenExpiringIn } from '@/testing/fake-xhr.ts';

vi.mock('@/lib/session/session-calls.ts', () => ({ renewSession: vi.fn() }));
const renew = vi.mocked(renewSession);

const EXPIRED = tokenExpiringIn(-60);
const FRESH = tokenExpiringIn(900);

function stored() {
  return {
    access: localStorage.getItem('accessToken'),
    hasRefreshCookie: localStorage.getItem('hasRefreshCookie'),
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
  localStorage.setItem('hasRefreshCookie', 'true');
  localStorage.setItem('user', JSON.stringify({ _id: 'u1', name: 'Kavya Menon', email: 'kavya@example.com', role: 'learner' }));
  renew.mockReset();
  expiredEvents = 0;
  window.addEventListener(SESSION_EXPIRED_EVENT, countExpired);
});

afterEach(() => {
  window.removeEventListener(SESSION_EXPIRED_EVENT, countExpired);
  vi.unstubAllGlobals();
});

describe('refreshAccessToken', () => {
  it('renews the session with the refresh cookie, keeps the new access token and answers it', async () => {
    renew.mockResolvedValue({ outcome: 'renewed', accessToken: FRESH });
    await expect(refreshAccessToken()).resolves.toBe(FRESH);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(stored()).toMatchObject({ access: FRESH, hasRefreshCookie: 'true' });
    expect(expiredEvents).toBe(0);
  });

  it('renews once for calls that fail together: each renewal rotates the refresh cookie', async () => {
    let answer!: (renewal: TRenewal) => void;
    renew.mockReturnValue(new Promise((resolve) => (answer = resolve)));

    const together = [refreshAccessToken(), refreshAccessToken(), refreshAccessToken()];
    answer({ outcome: 'renewed', accessToken: FRESH });
    await expect(Promise.all(together)).resolves.toEqual([FRESH, FRESH, FRESH]);
    expect(renew).toHaveBeenCalledTimes(1);

    // Once settled, the next expiry gets its own renewal.
    const later = tokenExpiringIn(1_800);
    renew.mockResolvedValue({ outcome: 'renewed', accessToken: later });
    await expect(refreshAccessToken()).resolves.toBe(later);
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it('ends the session when the server refuses the renewal', async () => {
    renew.mockResolvedValue({ outcome: 'refused' });
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(stored()).toEqual({ access: null, hasRefreshCookie: null, user: null });
    expect(expiredEvents).toBe(1);
  });

  it('leaves the session alone when the server cannot be reached (offline is not logged out)', async () => {
    renew.mockResolvedValue({ outcome: 'unreachable' });
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(stored()).toMatchObject({ access: EXPIRED, hasRefreshCookie: 'true' });
    expect(expiredEvents).toBe(0);
  });

  it('ends the session without asking the server when the login left no refresh cookie', async () => {
    localStorage.removeItem('hasRefreshCookie');
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(renew).not.toHaveBeenCalled();
    expect(stored().access).toBeNull();
    expect(expiredEvents).toBe(1);
  });

  it('uses the access token another tab has just renewed instead of rotating the cookie again', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        // The other tab held the lock and renewed the session meanwhile.
        request: async (_name: string, renewUnlessDone: () => Promise<string | null>) => {
          localStorage.setItem('accessToken', FRESH);
          return renewUnlessDone();
        },
      },
    });
    await expect(refreshAccessToken()).resolves.toBe(FRESH);
    expect(renew).not.toHaveBeenCalled();
    expect(stored()).toMatchObject({ access: FRESH, hasRefreshCookie: 'true' });
  });
});

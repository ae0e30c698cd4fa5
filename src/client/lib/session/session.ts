import { useSyncExternalStore } from 'react';

/*
 * The stored session: `accessToken` and `user` in localStorage, as the spec's client keeps them,
 * and a flag saying the browser holds a refresh cookie. The refresh token itself is in an HttpOnly
 * cookie that script cannot read (decision 015). This file is part of the home page's first chunk,
 * so it holds only what the navigation bar and the guards need (read, clear, listen); storing a
 * session is in lib/session/session-store.ts, refreshing and expiry checks in lib/session/session-refresh.ts and
 * lib/session/session-monitor.ts, all loaded only when needed.
 */

export const ACCESS_TOKEN_KEY = 'accessToken';
export const USER_KEY = 'user';
/** Set while the browser holds a refresh cookie for this session; not a secret, just a hint. */
export const REFRESH_COOKIE_FLAG_KEY = 'hasRefreshCookie';

/**
 * Set while a logout made in this browser has not reached the server (no link at the time): the
 * session it ends (its id, or empty when unknown). Nothing of the user: an opaque session id that
 * ends that session and nothing else. Sent before any other call (lib/session/session-calls.ts).
 */
export const PENDING_LOGOUT_KEY = 'logoutPending';

/**
 * Every key a signed-in session may have left behind (`refreshToken`, `token` and `adminToken`:
 * older clients' names).
 */
export const SESSION_STORAGE_KEYS = [ACCESS_TOKEN_KEY, USER_KEY, REFRESH_COOKIE_FLAG_KEY, 'refreshToken', 'token', 'adminToken'] as const;

/** Fired on window when this tab changes the session (the `storage` event only reaches other tabs). */
const SESSION_CHANGE_EVENT = 'portal:session-change';
/** Fired when the session ended without the user asking (expired, refused refresh). */
export const SESSION_EXPIRED_EVENT = 'portal:session-expired';

/** A stored value, or null (also when storage is switched off, as in some private modes). */
export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Whether a logout is waiting to be sent (see PENDING_LOGOUT_KEY). */
export function hasPendingLogout(): boolean {
  return readStored(PENDING_LOGOUT_KEY) !== null;
}

export function readAccessToken(): string | null {
  return readStored(ACCESS_TOKEN_KEY);
}

/** The signed-in user's id, from the stored user (`_id`), if any. */
export function readStoredUserId(): string | undefined {
  try {
    const user: unknown = JSON.parse(readStored(USER_KEY) ?? 'null');
    return user && typeof user === 'object' && '_id' in user && typeof user._id === 'string' ? user._id : undefined;
  } catch {
    return undefined;
  }
}

/** Tells this tab's listeners that the session changed. */
export function announceSessionChange(): void {
  window.dispatchEvent(new Event(SESSION_CHANGE_EVENT));
}

/** Forgets the stored session in this browser. */
export function clearStoredSession(): void {
  for (const key of SESSION_STORAGE_KEYS) {
    try {
      localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to forget.
    }
  }
  announceSessionChange();
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === ACCESS_TOKEN_KEY) onChange();
  };
  window.addEventListener(SESSION_CHANGE_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(SESSION_CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored access token, re-rendering when it changes here or in another tab. */
export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribe, readAccessToken, () => null);
}

/** Whether someone is signed in in this browser (the spec's login state: an access token is stored). */
export function useHasSession(): boolean {
  return useAccessToken() !== null;
}

import type { TStaffRole } from '../../../shared/staff-roles.ts';
import {
  ACCESS_TOKEN_KEY,
  REFRESH_COOKIE_FLAG_KEY,
  SESSION_EXPIRED_EVENT,
  USER_KEY,
  announceSessionChange,
  clearStoredSession,
  readStored,
} from '@/lib/session/session.ts';

/*
 * Writing and ending sessions: used by the login screens and the refresh code, so it stays out of
 * the home page's first chunk (lib/session/session.ts has what the navigation bar needs).
 */

/**
 * The user as stored under `user`: the documented REST shape, with `_id`, and a member of staff's
 * role, so the admin area shows their menu from its first render (the server decides what they may
 * do, whatever is stored here).
 */
export type TStoredUser = { _id: string; name: string; email: string; role: string; staffRole?: TStaffRole | null };

/**
 * Whether the session can be renewed: the login left a refresh cookie in this browser. The cookie
 * itself is out of script's reach; the server says whether it is still good.
 */
export function canRenewSession(): boolean {
  return readStored(REFRESH_COOKIE_FLAG_KEY) !== null;
}

export function readStoredUser(): TStoredUser | null {
  const raw = readStored(USER_KEY);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && '_id' in value ? (value as TStoredUser) : null;
  } catch {
    return null;
  }
}

/**
 * Keeps a new or renewed session: its access token, and the user when it is known. The server
 * has just set or rotated the refresh cookie, so the session can be renewed from here on.
 */
export function storeSession(accessToken: string, user?: TStoredUser): void {
  localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
  localStorage.setItem(REFRESH_COOKIE_FLAG_KEY, 'true');
  // Older clients kept the refresh token itself here, readable by any script on the page.
  localStorage.removeItem('refreshToken');
  if (user) localStorage.setItem(USER_KEY, JSON.stringify(user));
  announceSessionChange();
}

// Set when a session ends on its own, so the login screen can say why the user is there.
let expiredNoticePending = false;

/**
 * Tells the app the session ended (it sends the user to a login screen), then clears it. In that
 * order: the listener lives in a component that goes away once nobody is signed in.
 */
export function expireSession(): void {
  expiredNoticePending = true;
  window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
  clearStoredSession();
}

/** Whether the last session ended on its own (expired or refused) and nobody has said so yet. */
export function hasExpiredNotice(): boolean {
  return expiredNoticePending;
}

export function dismissExpiredNotice(): void {
  expiredNoticePending = false;
}


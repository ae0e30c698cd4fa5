import { isAdminArea, paths } from '@/config/paths.ts';

/** What the account screens pass each other in navigation state. */
export type TAuthNavigationState = {
  /** The e-mail address the next screen works on (OTP, reset password, prefilled login). */
  email?: string;
  /** Where the user wanted to go before being asked to log in (lib/session/login-return.ts). */
  from?: string;
  /** The only user `from` is for: the one whose session ended there. */
  forUser?: string;
  /**
   * Navigation state for `from`, handed back when the login leads there: what the user was doing
   * when asked to log in (the catalogue's Enroll Now keeps the course here).
   */
  returnState?: Record<string, unknown>;
  /** Why the OTP screen was opened: a new registration, or a login refused for an unverified e-mail. */
  reason?: 'registered' | 'unverified';
  /** A message from the previous screen to show on arrival. */
  notice?: string;
};

/** The navigation state, if it is one of ours (anything else, or nothing, reads as empty). */
export function readAuthState(state: unknown): TAuthNavigationState {
  if (!state || typeof state !== 'object') return {};
  const record = state as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' && record[key] !== '' ? (record[key] as string) : undefined);
  const reason = text('reason');
  const returnState = record.returnState;
  return {
    email: text('email'),
    from: text('from'),
    forUser: text('forUser'),
    returnState: returnState && typeof returnState === 'object' ? (returnState as Record<string, unknown>) : undefined,
    reason: reason === 'registered' || reason === 'unverified' ? reason : undefined,
    notice: text('notice'),
  };
}

/**
 * Where a user goes after logging in: back where they were headed, else their role's home. A page
 * kept for another user (their session ended there) is not this one's to open.
 */
export function destinationAfterLogin(user: { id: string; role: string }, { from, forUser }: Pick<TAuthNavigationState, 'from' | 'forUser'>): string {
  const role = user.role;
  const theirs = forUser === undefined || forUser === user.id;
  const wanted = theirs && from && from.startsWith('/') && !from.startsWith('//') ? from : undefined;
  const wantsAdminArea = wanted !== undefined && isAdminArea(wanted);
  if (role === 'admin') return wanted && wantsAdminArea ? wanted : paths.admin.root;
  return wanted && !wantsAdminArea ? wanted : paths.dashboard;
}

import { paths } from '@/config/paths.ts';

/** The navigation bar's entries (spec section 2, "Navigation bar"), shared by the bar and its drawer. */
export const PUBLIC_NAV_ENTRIES = [
  { to: paths.home, label: 'Home', end: true },
  { to: paths.courses, label: 'Courses', end: false },
  { to: paths.contact, label: 'Contact', end: false },
] as const;

/** Added to the bar while an access token is stored. */
export const SIGNED_IN_NAV_ENTRIES = [
  { to: paths.profile, label: 'Profile', end: false },
  { to: paths.dashboard, label: 'Dashboard', end: false },
  { to: paths.myCertificates, label: 'My certificates', end: false },
] as const;

/** The id of the drawer's panel, for the menu button's aria-controls. */
export const MOBILE_NAV_DRAWER_ID = 'mobile-nav-drawer';

/**
 * Signs out (the code is fetched on use): revokes the session, then opens /login afresh (spec
 * section 4), in place of the page the learner was on: a new document, so nothing of theirs stays
 * in memory, and no navigation state (the next person to sign in goes to their own home).
 */
export async function logOutAndReload(): Promise<void> {
  const { logOut } = await import('@/lib/session/log-out.ts');
  await logOut();
  window.location.replace(paths.login);
}

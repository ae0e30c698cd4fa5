/** The navigation bar's entries (spec section 2, "Navigation bar"), shared by the bar and its drawer. */
export const PUBLIC_NAV_ENTRIES = [
  { to: '/', label: 'Home', end: true },
  { to: '/courses', label: 'Courses', end: false },
  { to: '/contact', label: 'Contact', end: false },
] as const;

export const LOGIN_PATH = '/login';

/** The id of the drawer's panel, for the menu button's aria-controls. */
export const MOBILE_NAV_DRAWER_ID = 'mobile-nav-drawer';

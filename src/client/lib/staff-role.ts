import { staffMay, type TStaffPermission, type TStaffRole } from '../../shared/staff-roles.ts';
import { useState } from 'react';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { SCREEN_ROUTES } from '@/config/routes.ts';
import { useMe } from '@/lib/api/auth.ts';

/**
 * The signed-in member's staff role, read from the server (auth.me); until it answers, the role
 * the login stored (undefined when there is none); null for someone who is not staff. The server
 * refuses what a role may not do whatever the screens show; this only keeps each member's screens
 * to what their role may use.
 */
export function useStaffRole(): { staffRole: TStaffRole | null | undefined; isError: boolean; refetch: () => unknown } {
  const me = useMe();
  const [stored] = useState(() => readStoredUser()?.staffRole);
  return { staffRole: me.data ? me.data.staffRole : stored, isError: me.isError, refetch: me.refetch };
}

/**
 * Whether the signed-in member's role holds the permission. False while the role loads, so an
 * action appears once the role is known rather than showing and then vanishing.
 */
export function useStaffMay(permission: TStaffPermission): boolean {
  return staffMay(useStaffRole().staffRole, permission);
}

/** Whether a role may open an admin screen, by its route pattern's permission in the route table. */
export function staffMayOpen(staffRole: TStaffRole | null | undefined, pattern: string): boolean {
  const permission = SCREEN_ROUTES.find((route) => route.pattern === pattern)?.permission;
  return !permission || staffMay(staffRole, permission);
}

/** staffMayOpen for the signed-in member (false while the role loads, for a screen with a permission). */
export function useStaffMayOpen(): (pattern: string) => boolean {
  const { staffRole } = useStaffRole();
  return (pattern) => staffMayOpen(staffRole, pattern);
}

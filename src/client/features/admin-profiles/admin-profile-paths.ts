import { adminPath } from '@/components/layouts/admin-menu.ts';

export const USER_PROFILES_PATH = adminPath('user-profiles');

/** The administrators' view of one user's profile (linked from the user lists). */
export function userProfilePath(userId: string): string {
  return `${USER_PROFILES_PATH}/${encodeURIComponent(userId)}`;
}

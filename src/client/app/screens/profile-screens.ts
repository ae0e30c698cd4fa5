/*
 * The learner's profile screens as one lazily loaded chunk: the edit screen is only opened from the
 * profile page and shares its form, and one chunk adds one entry (with the list of files it needs)
 * to the home page's first chunk instead of two (decision record 006).
 */
export { ProfileEditPage } from '@/features/profile/profile-edit-page.tsx';
export { ProfilePage } from '@/features/profile/profile-page.tsx';

/*
 * The learner's profile screens as one lazily loaded chunk: the edit screen is only ever opened
 * from the profile page and shares its form, and one entry instead of two keeps the home page's
 * first chunk within its budget (decision record 006).
 */
export { ProfileEditPage } from '@/features/profile/profile-edit-page.tsx';
export { ProfilePage } from '@/features/profile/profile-page.tsx';

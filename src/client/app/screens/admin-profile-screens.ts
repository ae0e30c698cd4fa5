/*
 * The administrators' profile screens, the list and one user's profile, as one chunk: the detail
 * page is opened from the list and the user lists, and one chunk adds one entry (with the list of
 * files it needs) to the home page's first chunk instead of two (decision record 006).
 */
export { UserProfileDetailPage } from '@/features/admin-profiles/user-profile-detail-page.tsx';
export { UserProfilesPage } from '@/features/admin-profiles/user-profiles-page.tsx';

import { Route, Routes } from 'react-router-dom';
import { UserProfileDetailPage } from '@/features/admin-profiles/user-profile-detail-page.tsx';
import { UserProfilesPage } from '@/features/admin-profiles/user-profiles-page.tsx';

/**
 * The administrators' profile screens under /admin-dashboard/user-profiles: the list, and one
 * user's profile at /:userId. One route module keeps them one chunk and one entry in the app's
 * router, whose every line counts against the home page's JavaScript budget.
 */
export function UserProfilesRoutes() {
  return (
    <Routes>
      <Route index element={<UserProfilesPage />} />
      <Route path=":userId" element={<UserProfileDetailPage />} />
    </Routes>
  );
}

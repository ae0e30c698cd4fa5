import { type ComponentType, lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { paths } from '@/app/paths.ts';
import { RequireAdmin } from '@/app/require-admin.tsx';
import { AdminLayout } from '@/components/layouts/admin-layout.tsx';

/** React.lazy for a module's named export. */
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const AdminOverviewPage = lazyNamed(() => import('@/features/admin/admin-overview-page.tsx'), 'AdminOverviewPage');
const AdminNotFoundPage = lazyNamed(() => import('@/features/admin/admin-not-found-page.tsx'), 'AdminNotFoundPage');
const UnapprovedUsersPage = lazyNamed(() => import('@/features/admin-users/unapproved-users-page.tsx'), 'UnapprovedUsersPage');
const ApprovedUsersPage = lazyNamed(() => import('@/features/admin-users/approved-users-page.tsx'), 'ApprovedUsersPage');
const loadAdminProfileScreens = () => import('@/app/screens/admin-profile-screens.ts');
const UserProfilesPage = lazyNamed(loadAdminProfileScreens, 'UserProfilesPage');
const UserProfileDetailPage = lazyNamed(loadAdminProfileScreens, 'UserProfileDetailPage');
const loadAdminCourseScreens = () => import('@/app/screens/admin-course-screens.ts');
const AdminCoursesPage = lazyNamed(loadAdminCourseScreens, 'AdminCoursesPage');
const CourseFormPage = lazyNamed(loadAdminCourseScreens, 'CourseFormPage');
const EnrolmentRequestsAdminPage = lazyNamed(loadAdminCourseScreens, 'EnrolmentRequestsAdminPage');
const loadAdminTrainingScreens = () => import('@/app/screens/admin-training-screens.ts');
const UploadTrainingVideosPage = lazyNamed(loadAdminTrainingScreens, 'UploadTrainingVideosPage');
const TrainingVideosPage = lazyNamed(loadAdminTrainingScreens, 'TrainingVideosPage');
const loadAdminTestScreens = () => import('@/app/screens/admin-test-screens.ts');
const TestFormPage = lazyNamed(loadAdminTestScreens, 'TestFormPage');
const AllTestsPage = lazyNamed(loadAdminTestScreens, 'AllTestsPage');
const PublishedTestsPage = lazyNamed(loadAdminTestScreens, 'PublishedTestsPage');
const TestResultsPage = lazyNamed(loadAdminTestScreens, 'TestResultsPage');

/** A path of the admin area as its own routes declare it: relative to the area. */
function inArea(path: string): string {
  return path.slice(paths.admin.root.length + 1);
}

/**
 * The administration area, one lazy chunk: its frame for administrators only (see RequireAdmin)
 * and its screens. Its routes live here rather than in the app's router, so visitors' first page
 * does not carry them.
 */
export function AdminArea() {
  return (
    <Routes>
      <Route
        element={
          <RequireAdmin>
            <AdminLayout />
          </RequireAdmin>
        }
      >
        <Route index element={<AdminOverviewPage />} />
        <Route path={inArea(paths.admin.users.unapproved)} element={<UnapprovedUsersPage />} />
        <Route path={inArea(paths.admin.users.approved)} element={<ApprovedUsersPage />} />
        <Route path={inArea(paths.admin.users.profiles)} element={<UserProfilesPage />} />
        <Route path={inArea(paths.admin.users.profile.pattern)} element={<UserProfileDetailPage />} />
        <Route path={inArea(paths.admin.courses.list)} element={<AdminCoursesPage />} />
        <Route path={inArea(paths.admin.courses.create)} element={<CourseFormPage />} />
        <Route path={inArea(paths.admin.courses.enrolmentRequests)} element={<EnrolmentRequestsAdminPage />} />
        <Route path={inArea(paths.admin.training.upload)} element={<UploadTrainingVideosPage />} />
        <Route path={inArea(paths.admin.training.list)} element={<TrainingVideosPage />} />
        <Route path={inArea(paths.admin.tests.create)} element={<TestFormPage />} />
        <Route path={inArea(paths.admin.tests.list)} element={<AllTestsPage />} />
        <Route path={inArea(paths.admin.tests.published)} element={<PublishedTestsPage />} />
        <Route path={inArea(paths.admin.tests.results)} element={<TestResultsPage />} />
        <Route path="*" element={<AdminNotFoundPage />} />
      </Route>
    </Routes>
  );
}

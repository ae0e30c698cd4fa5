import { Route, Routes, matchPath } from 'react-router-dom';
import { type TLazyScreen, lazyNamed } from '@/app/lazy-screen.tsx';
import { paths } from '@/config/paths.ts';
import { RequireAdmin } from '@/app/require-admin.tsx';
import { AdminLayout } from '@/components/layouts/admin-layout.tsx';

const AdminOverviewPage = lazyNamed(() => import('@/features/admin/admin-overview-page.tsx'), 'AdminOverviewPage');
const AdminNotFoundPage = lazyNamed(() => import('@/features/admin/admin-not-found-page.tsx'), 'AdminNotFoundPage');
const UnapprovedUsersPage = lazyNamed(() => import('@/features/admin-users/unapproved-users-page.tsx'), 'UnapprovedUsersPage');
const ApprovedUsersPage = lazyNamed(() => import('@/features/admin-users/approved-users-page.tsx'), 'ApprovedUsersPage');
const loadAdminProfileScreens = () => import('@/app/screens/admin-profile-screens.ts');
const UserProfilesPage = lazyNamed(loadAdminProfileScreens, 'UserProfilesPage');
const UserProfileDetailPage = lazyNamed(loadAdminProfileScreens, 'UserProfileDetailPage');
const loadAdminCourseScreens = () => import('@/app/screens/admin-course-screens.ts');
const AdminCoursesPage = lazyNamed(loadAdminCourseScreens, 'AdminCoursesPage');
const EnrolmentRequestsAdminPage = lazyNamed(loadAdminCourseScreens, 'EnrolmentRequestsAdminPage');
const TrainingVideosPage = lazyNamed(() => import('@/features/admin-training/training-videos-page.tsx'), 'TrainingVideosPage');
const loadAdminTestScreens = () => import('@/app/screens/admin-test-screens.ts');
const AllTestsPage = lazyNamed(loadAdminTestScreens, 'AllTestsPage');
const PublishedTestsPage = lazyNamed(loadAdminTestScreens, 'PublishedTestsPage');
const TestResultsPage = lazyNamed(loadAdminTestScreens, 'TestResultsPage');
const EvidenceExportPage = lazyNamed(loadAdminTestScreens, 'EvidenceExportPage');
const CertificateEvidencePage = lazyNamed(loadAdminTestScreens, 'CertificateEvidencePage');
// The forms, with the form library and zod, which the lists above do not load.
const loadAdminFormScreens = () => import('@/app/screens/admin-form-screens.ts');
const CourseFormPage = lazyNamed(loadAdminFormScreens, 'CourseFormPage');
const UploadTrainingVideosPage = lazyNamed(loadAdminFormScreens, 'UploadTrainingVideosPage');
const TestFormPage = lazyNamed(loadAdminFormScreens, 'TestFormPage');

/** The area's screens by their full path; the area's routes are made from this list. */
const SCREENS: Array<[string, TLazyScreen]> = [
  [paths.admin.users.unapproved, UnapprovedUsersPage],
  [paths.admin.users.approved, ApprovedUsersPage],
  [paths.admin.users.profiles, UserProfilesPage],
  [paths.admin.users.profile.pattern, UserProfileDetailPage],
  [paths.admin.courses.list, AdminCoursesPage],
  [paths.admin.courses.create, CourseFormPage],
  [paths.admin.courses.enrolmentRequests, EnrolmentRequestsAdminPage],
  [paths.admin.training.upload, UploadTrainingVideosPage],
  [paths.admin.training.list, TrainingVideosPage],
  [paths.admin.tests.create, TestFormPage],
  [paths.admin.tests.list, AllTestsPage],
  [paths.admin.tests.published, PublishedTestsPage],
  [paths.admin.tests.results, TestResultsPage],
  [paths.admin.tests.evidence, EvidenceExportPage],
  [paths.admin.tests.certificateEvidence.pattern, CertificateEvidencePage],
];

/** Loads the code of the area's screen at `pathname`, so a page opened on it draws it at once. */
export async function preloadAdminScreen(pathname: string): Promise<void> {
  const screen = matchPath(paths.admin.root, pathname) ? AdminOverviewPage : SCREENS.find(([path]) => matchPath(path, pathname))?.[1];
  await (screen ?? AdminNotFoundPage).preload();
}

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
        {SCREENS.map(([path, Screen]) => (
          <Route key={path} path={inArea(path)} element={<Screen />} />
        ))}
        <Route path="*" element={<AdminNotFoundPage />} />
      </Route>
    </Routes>
  );
}

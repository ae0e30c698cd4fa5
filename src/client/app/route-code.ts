// eslint-disable-next-line no-restricted-imports -- the build's configuration reads this file outside Vite's resolver, where '@/' means nothing
import { paths } from '../config/paths.ts';

/*
 * The modules (under src/client) whose chunks each client route needs beyond the entry. The build
 * (build/route-chunks.ts) turns this into the list of chunk files per route, and the server puts
 * them in the page as <link rel="modulepreload">, so a deep link fetches a screen's code in
 * parallel with the entry instead of one lazy chunk after another (decision 020).
 * Keep it in step with the lazy imports in router.tsx and providers.tsx.
 */
// The providers' screens mount the toaster (app/toaster-outlet.tsx) as they arrive.
const PROVIDERS = ['app/providers.tsx', 'components/ui/sonner.tsx'];
const ACCOUNT = [...PROVIDERS, 'app/screens/account-screens.ts'];
const REGISTRATION = [...PROVIDERS, 'app/screens/registration-screens.ts'];
const LEARNER_COURSES = [...PROVIDERS, 'app/screens/learner-course-screens.ts'];
const PROFILE = [...PROVIDERS, 'features/profile/profile-page.tsx'];
const PROFILE_EDIT = [...PROVIDERS, 'features/profile/profile-edit-page.tsx'];
const TEST_CERTIFICATE = [...PROVIDERS, 'app/screens/test-certificate-screens.ts'];
const VERIFY = [...PROVIDERS, 'features/certificates/verify-page.tsx'];
// The admin area's frame, then the group of the screen at the address (app/admin-area.tsx).
const ADMIN = [...PROVIDERS, 'app/admin-area.tsx'];
const ADMIN_PROFILES = [...ADMIN, 'app/screens/admin-profile-screens.ts'];
const ADMIN_COURSES = [...ADMIN, 'app/screens/admin-course-screens.ts'];
const ADMIN_TESTS = [...ADMIN, 'app/screens/admin-test-screens.ts'];
const ADMIN_FORMS = [...ADMIN, 'app/screens/admin-form-screens.ts'];

export const ROUTE_CODE: Record<string, string[]> = {
  [paths.about]: ['features/about/about-page.tsx'],
  [paths.contact]: [...PROVIDERS, 'features/contact/contact-page.tsx'],
  [paths.courses]: LEARNER_COURSES,
  [paths.login]: ACCOUNT,
  [paths.registration]: REGISTRATION,
  [paths.otp]: ACCOUNT,
  [paths.forgotPassword]: ACCOUNT,
  [paths.resetPassword]: ACCOUNT,
  [paths.adminLogin]: ACCOUNT,
  [paths.adminSetup]: REGISTRATION,
  [paths.dashboard]: [...PROVIDERS, 'app/screens/dashboard-screen.tsx', 'app/screens/learner-course-screens.ts'],
  [paths.profile]: PROFILE,
  [paths.profileEdit]: PROFILE_EDIT,
  [paths.courseContent.pattern]: LEARNER_COURSES,
  [paths.enrolmentRequests]: LEARNER_COURSES,
  [paths.userCourses]: LEARNER_COURSES,
  [paths.training.pattern]: [...PROVIDERS, 'features/training/training-player-page.tsx'],
  [paths.testPage.pattern]: TEST_CERTIFICATE,
  [paths.certificateReport]: TEST_CERTIFICATE,
  // The server's pattern '/verify/*' needs a segment after /verify, so the bare page is listed too.
  [paths.verify]: VERIFY,
  [paths.verifyCertificate.pattern]: VERIFY,
  // The server takes the first pattern that matches: the area's screens before the rest of it.
  [paths.admin.root]: [...ADMIN, 'features/admin/admin-overview-page.tsx'],
  [paths.admin.users.unapproved]: [...ADMIN, 'features/admin-users/unapproved-users-page.tsx'],
  [paths.admin.users.approved]: [...ADMIN, 'features/admin-users/approved-users-page.tsx'],
  [paths.admin.users.profiles]: ADMIN_PROFILES,
  [paths.admin.users.profile.pattern]: ADMIN_PROFILES,
  [paths.admin.courses.list]: ADMIN_COURSES,
  [paths.admin.courses.create]: ADMIN_FORMS,
  [paths.admin.courses.enrolmentRequests]: ADMIN_COURSES,
  [paths.admin.training.upload]: ADMIN_FORMS,
  [paths.admin.training.list]: [...ADMIN, 'features/admin-training/training-videos-page.tsx'],
  [paths.admin.tests.create]: ADMIN_FORMS,
  [paths.admin.tests.list]: ADMIN_TESTS,
  [paths.admin.tests.published]: ADMIN_TESTS,
  [paths.admin.tests.results]: ADMIN_TESTS,
  [paths.admin.tests.evidence]: ADMIN_TESTS,
  [paths.admin.tests.certificateEvidence.pattern]: ADMIN_TESTS,
  [`${paths.admin.root}/*`]: [...ADMIN, 'features/admin/admin-not-found-page.tsx'],
};

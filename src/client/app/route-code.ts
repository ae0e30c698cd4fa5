// eslint-disable-next-line no-restricted-imports -- the build's configuration reads this file outside Vite's resolver, where '@/' means nothing
import { paths } from './paths.ts';

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
const PROFILE = [...PROVIDERS, 'app/screens/profile-screens.ts'];
const TEST_CERTIFICATE = [...PROVIDERS, 'app/screens/test-certificate-screens.ts'];
const VERIFY = [...PROVIDERS, 'features/certificates/verify-page.tsx'];

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
  [paths.profileEdit]: PROFILE,
  [paths.courseContent.pattern]: LEARNER_COURSES,
  [paths.enrolmentRequests]: LEARNER_COURSES,
  [paths.userCourses]: LEARNER_COURSES,
  [paths.training.pattern]: [...PROVIDERS, 'features/training/training-player-page.tsx'],
  [paths.testPage.pattern]: TEST_CERTIFICATE,
  [paths.certificateReport]: TEST_CERTIFICATE,
  // The server's pattern '/verify/*' needs a segment after /verify, so the bare page is listed too.
  [paths.verify]: VERIFY,
  [paths.verifyCertificate.pattern]: VERIFY,
  [`${paths.admin.root}/*`]: [...PROVIDERS, 'app/admin-area.tsx'],
};

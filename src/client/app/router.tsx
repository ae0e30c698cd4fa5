import { type ReactNode, Suspense } from 'react';
import { Route, Routes, matchPath } from 'react-router-dom';
import { type TLazyScreen, lazyNamed } from '@/app/lazy-screen.tsx';
import { paths } from '@/config/paths.ts';
import { RequireSession } from '@/app/require-session.tsx';
import { ScrollToTop } from '@/app/scroll-to-top.tsx';
import { SessionWatch } from '@/app/session-watch.tsx';
import { PublicLayout } from '@/components/layouts/public-layout.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { RouteErrorBoundary } from '@/features/errors/route-error-boundary.tsx';
import { HomePage } from '@/features/home/home-page.tsx';

const AboutPage = lazyNamed(() => import('@/features/about/about-page.tsx'), 'AboutPage');
const NotFoundPage = lazyNamed(() => import('@/features/errors/not-found-page.tsx'), 'NotFoundPage');
const loadProviders = () => import('@/app/providers.tsx');
const DataProvidersRoute = lazyNamed(loadProviders, 'DataProvidersRoute');
const ContactPage = lazyNamed(async () => (await loadProviders()).loadContactPage(), 'ContactPage');
// The administration area declares its own screens, in its own chunk (app/admin-area.tsx), and
// loads the one at the address with itself.
const AdminArea = lazyNamed(async (pathname?: string) => {
  const area = await (await loadProviders()).loadAdminArea();
  if (pathname) await area.preloadAdminScreen(pathname);
  return area;
}, 'AdminArea');
const loadAccountScreens = () => import('@/app/screens/account-screens.ts');
const LoginPage = lazyNamed(loadAccountScreens, 'LoginPage');
const AdminLoginPage = lazyNamed(loadAccountScreens, 'AdminLoginPage');
const loadRegistrationScreens = () => import('@/app/screens/registration-screens.ts');
const RegistrationPage = lazyNamed(loadRegistrationScreens, 'RegistrationPage');
const OtpPage = lazyNamed(loadAccountScreens, 'OtpPage');
const ForgotPasswordPage = lazyNamed(loadAccountScreens, 'ForgotPasswordPage');
const ResetPasswordPage = lazyNamed(loadAccountScreens, 'ResetPasswordPage');
const AdminSetupPage = lazyNamed(loadRegistrationScreens, 'AdminSetupPage');
const DashboardPage = lazyNamed(async () => {
  const screen = await import('@/app/screens/dashboard-screen.tsx');
  await screen.DashboardCourseList.preload();
  return screen;
}, 'DashboardScreen');
const ProfilePage = lazyNamed(() => import('@/features/profile/profile-page.tsx'), 'ProfilePage');
// With the creation form (which the profile page loads for a learner without one): the form
// library and zod are not part of the profile page.
const ProfileEditPage = lazyNamed(() => import('@/features/profile/profile-edit-page.tsx'), 'ProfileEditPage');
// Fetched through the providers' chunk, which the routes around these screens have loaded already.
const loadLearnerCourseScreens = async () => (await loadProviders()).loadLearnerCourseScreens();
const CoursesPage = lazyNamed(loadLearnerCourseScreens, 'CoursesPage');
const CourseContentPage = lazyNamed(loadLearnerCourseScreens, 'CourseContentPage');
const EnrolmentRequestsPage = lazyNamed(loadLearnerCourseScreens, 'EnrolmentRequestsPage');
const UserCoursesPage = lazyNamed(loadLearnerCourseScreens, 'UserCoursesPage');
// The player is its own area: its chunk is fetched only by learners who open a training.
const TrainingPlayerPage = lazyNamed(async () => (await loadProviders()).loadTrainingPlayerPage(), 'TrainingPlayerPage');
const loadTestCertificateScreens = async () => (await loadProviders()).loadTestCertificateScreens();
const TestPage = lazyNamed(loadTestCertificateScreens, 'TestPage');
const CertificateReportPage = lazyNamed(loadTestCertificateScreens, 'CertificateReportPage');
// Public: opened from a certificate's QR code, often as the first page of a visit.
const VerifyPage = lazyNamed(async () => (await loadProviders()).loadVerifyPage(), 'VerifyPage');

/**
 * The learner's screens, behind a session, by route pattern: their routes, their code loaded
 * before a page's first render and the server's frame of their pages (decision 038) all come
 * from this list.
 */
const LEARNER_SCREENS: Array<[string, TLazyScreen]> = [
  [paths.dashboard, DashboardPage],
  [paths.profile, ProfilePage],
  [paths.profileEdit, ProfileEditPage],
  [paths.courseContent.pattern, CourseContentPage],
  [paths.enrolmentRequests, EnrolmentRequestsPage],
  [paths.userCourses, UserCoursesPage],
  [paths.training.pattern, TrainingPlayerPage],
  [paths.testPage.pattern, TestPage],
  [paths.certificateReport, CertificateReportPage],
];

/** The route patterns of the learner's pages. */
export const LEARNER_PAGES: readonly string[] = LEARNER_SCREENS.map(([pattern]) => pattern);

/**
 * The screens a page may open on, with the data providers they render inside: the code of the
 * screen at the page's address runs before the first render, which then draws the screen (its
 * skeleton) and asks for its data at once, rather than a spinner that waits for the code.
 */
const FIRST_SCREENS: Array<[string, TLazyScreen[]]> = [
  [paths.about, [AboutPage]],
  [paths.contact, [DataProvidersRoute, ContactPage]],
  [paths.courses, [DataProvidersRoute, CoursesPage]],
  [paths.login, [DataProvidersRoute, LoginPage]],
  [paths.registration, [DataProvidersRoute, RegistrationPage]],
  [paths.otp, [DataProvidersRoute, OtpPage]],
  [paths.forgotPassword, [DataProvidersRoute, ForgotPasswordPage]],
  [paths.resetPassword, [DataProvidersRoute, ResetPasswordPage]],
  [paths.adminLogin, [DataProvidersRoute, AdminLoginPage]],
  [paths.adminSetup, [DataProvidersRoute, AdminSetupPage]],
  [paths.verifyCertificate.pattern, [DataProvidersRoute, VerifyPage]],
  ...LEARNER_SCREENS.map(([pattern, screen]): [string, TLazyScreen[]] => [pattern, [DataProvidersRoute, screen]]),
  [`${paths.admin.root}/*`, [DataProvidersRoute, AdminArea]],
];

/**
 * Loads the code of the screen at `pathname` (the page has preloaded its chunks, decision 020),
 * so the first render shows the screen itself rather than a spinner that the screen then pushes
 * away. Other addresses render at once and load as they are visited.
 */
export async function preloadFirstScreen(pathname: string): Promise<void> {
  const screens = FIRST_SCREENS.find(([pattern]) => matchPath(pattern, pathname))?.[1] ?? [];
  await Promise.all(screens.map((screen) => screen.preload(pathname))).catch(() => undefined);
}

function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner size="lg" />
    </div>
  );
}

/**
 * A pathless layout route giving `children` React Query and tRPC. The providers' code (about 20 KB
 * gzip) is fetched with the first such route, so screens that never call the API, the home page
 * above all, do not ship it. Put every screen that calls the API inside withDataProviders(...).
 */
function withDataProviders(children: ReactNode) {
  return <Route element={<DataProvidersRoute />}>{children}</Route>;
}

/*
 * The declarative router (<BrowserRouter> in main.tsx, <Routes> here) rather than a data router:
 * createBrowserRouter adds about 17 KB gzip to the home page, and we load data with React Query.
 * Only the home page and the public layout are in the entry chunk; every other screen is a
 * React.lazy chunk fetched when first visited (the home page must stay within its JavaScript
 * budget). Navigations run in a transition, so the current page stays up while the next one loads.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <ScrollToTop />
      <SessionWatch />
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route path={paths.home} element={<PublicLayout />}>
            <Route index element={<HomePage />} />
            <Route path={paths.about} element={<AboutPage />} />
            {withDataProviders(
              <>
                {/* The contact form and the catalogue call the API. */}
                <Route path={paths.contact} element={<ContactPage />} />
                <Route path={paths.courses} element={<CoursesPage />} />
                <Route path={paths.login} element={<LoginPage />} />
                {/* Paths match without regard to case, so this is also the login screen's /Registration. */}
                <Route path={paths.registration} element={<RegistrationPage />} />
                <Route path={paths.otp} element={<OtpPage />} />
                <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
                <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
                <Route path={paths.adminLogin} element={<AdminLoginPage />} />
                <Route path={paths.adminSetup} element={<AdminSetupPage />} />
                {/* /verify and /verify/{number}: the number has slashes, so the rest of the path is its splat. */}
                <Route path={paths.verifyCertificate.pattern} element={<VerifyPage />} />
                <Route element={<RequireSession />}>
                  {LEARNER_SCREENS.map(([pattern, Screen]) => (
                    <Route key={pattern} path={pattern} element={<Screen />} />
                  ))}
                </Route>
              </>,
            )}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
          {withDataProviders(<Route path={`${paths.admin.root}/*`} element={<AdminArea />} />)}
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

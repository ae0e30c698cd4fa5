import { type ComponentType, type ReactNode, Suspense, lazy } from 'react';
import { Route, Routes } from 'react-router-dom';
import { ScrollToTop } from '@/app/scroll-to-top.tsx';
import { PublicLayout } from '@/components/layouts/public-layout.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { RouteErrorBoundary } from '@/features/errors/route-error-boundary.tsx';
import { HomePage } from '@/features/home/home-page.tsx';

/** React.lazy for a module's named export. */
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const AboutPage = lazyNamed(() => import('@/features/about/about-page.tsx'), 'AboutPage');
const ContactPage = lazyNamed(() => import('@/features/contact/contact-page.tsx'), 'ContactPage');
const NotFoundPage = lazyNamed(() => import('@/features/errors/not-found-page.tsx'), 'NotFoundPage');
const DataProvidersRoute = lazyNamed(() => import('@/app/providers.tsx'), 'DataProvidersRoute');
const AdminLayout = lazyNamed(() => import('@/components/layouts/admin-layout.tsx'), 'AdminLayout');
const AdminOverviewPage = lazyNamed(() => import('@/features/admin/admin-overview-page.tsx'), 'AdminOverviewPage');
const AdminNotFoundPage = lazyNamed(() => import('@/features/admin/admin-not-found-page.tsx'), 'AdminNotFoundPage');

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
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route path="/" element={<PublicLayout />}>
            <Route index element={<HomePage />} />
            <Route path="about" element={<AboutPage />} />
            <Route path="contact" element={<ContactPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
          {withDataProviders(
            <Route path="/admin-dashboard" element={<AdminLayout />}>
              <Route index element={<AdminOverviewPage />} />
              <Route path="*" element={<AdminNotFoundPage />} />
            </Route>,
          )}
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { lazyNamed } from '@/lib/lazy-component.tsx';
import { RequireSession } from '@/app/require-session.tsx';
import { routeAt, routesOf, screenOf } from '@/app/screens.tsx';
import { ScrollToTop } from '@/app/scroll-to-top.tsx';
import { SessionWatch } from '@/app/session-watch.tsx';
import { PublicLayout } from '@/components/layouts/public-layout.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import type { TScreenRoute } from '@/config/routes.ts';
import { RouteErrorBoundary } from '@/features/errors/route-error-boundary.tsx';

/*
 * The app's routes, all made from the route table (config/routes.ts): an entry's area decides its
 * layout and guard, its `dataProviders` whether it renders inside React Query and tRPC.
 */

/**
 * A pathless layout route giving its children React Query and tRPC. The providers' code (about 20
 * KB gzip) is fetched with the first such route, so screens that never call the API, the home page
 * above all, do not ship it.
 */
const DataProvidersRoute = lazyNamed(() => import('@/app/providers.tsx'), 'DataProvidersRoute');
/**
 * The administration area: its guard, its layout and its routes, in a chunk of its own, so
 * visitors' first page does not carry them.
 */
const AdminArea = lazyNamed(() => import('@/app/admin-area.tsx'), 'AdminArea');

const callsApi = (route: TScreenRoute) => route.dataProviders !== false;

/**
 * Loads the code of the screen at `pathname` and of what it renders inside (the data providers,
 * the admin area), all at once: the page has preloaded their files (decision 020), and the first
 * render then draws the screen itself, whose queries start with it, rather than a spinner that
 * the screen then pushes away. Other addresses render at once and load as they are visited.
 */
export async function preloadFirstScreen(pathname: string): Promise<void> {
  const route = routeAt(pathname);
  if (!route) return;
  const code = [screenOf(route)];
  if (callsApi(route)) code.push(DataProvidersRoute);
  if (route.area === 'admin') code.push(AdminArea);
  await Promise.all(code.map((screen) => screen.preload())).catch(() => undefined);
}

/** The route of one entry (the home page is its layout's index). */
function screenRoute(route: TScreenRoute) {
  const Screen = screenOf(route);
  return route.pattern === paths.home ? (
    <Route key={route.pattern} index element={<Screen />} />
  ) : (
    <Route key={route.pattern} path={route.pattern} element={<Screen />} />
  );
}

/** The public pages and, behind a session, the learner's, of those given. */
function siteRoutes(routes: TScreenRoute[]) {
  const learner = routes.filter((route) => route.area === 'learner');
  return (
    <>
      {routes.filter((route) => route.area === 'public').map(screenRoute)}
      {learner.length > 0 && <Route element={<RequireSession />}>{learner.map(screenRoute)}</Route>}
    </>
  );
}

const SITE_ROUTES = [...routesOf('public'), ...routesOf('learner')];

function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner size="lg" />
    </div>
  );
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
            {siteRoutes(SITE_ROUTES.filter((route) => !callsApi(route)))}
            <Route element={<DataProvidersRoute />}>{siteRoutes(SITE_ROUTES.filter(callsApi))}</Route>
          </Route>
          <Route element={<DataProvidersRoute />}>
            <Route path={`${paths.admin.root}/*`} element={<AdminArea />} />
          </Route>
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}

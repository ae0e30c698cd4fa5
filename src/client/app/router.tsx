import { type RouteObject, createBrowserRouter } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { RouteErrorPage } from '@/features/errors/route-error-page.tsx';
import { HomePage } from '@/features/home/home-page.tsx';

function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner size="lg" />
    </div>
  );
}

/** A pathless layout route giving `children` React Query and tRPC (see DataProvidersRoute). */
function withDataProviders(children: RouteObject[]): RouteObject {
  return {
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <FullPageSpinner />,
    lazy: async () => ({ Component: (await import('@/app/providers.tsx')).DataProvidersRoute }),
    children,
  };
}

/*
 * Only the home page and the public layout are in the entry chunk; every other screen is fetched
 * when first visited (the home page must stay within its JavaScript budget). Screens that call the
 * API go inside withDataProviders(...).
 */
export const router = createBrowserRouter([
  {
    path: '/',
    Component: PublicLayout,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { index: true, Component: HomePage },
      {
        path: 'about',
        lazy: async () => ({ Component: (await import('@/features/about/about-page.tsx')).AboutPage }),
      },
      {
        path: 'contact',
        lazy: async () => ({ Component: (await import('@/features/contact/contact-page.tsx')).ContactPage }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('@/features/errors/not-found-page.tsx')).NotFoundPage }),
      },
    ],
  },
  withDataProviders([
    {
      path: '/admin-dashboard',
      errorElement: <RouteErrorPage />,
      lazy: async () => ({ Component: (await import('@/components/layouts/admin-layout.tsx')).AdminLayout }),
      children: [
        {
          index: true,
          lazy: async () => ({
            Component: (await import('@/features/admin/admin-overview-page.tsx')).AdminOverviewPage,
          }),
        },
        {
          path: '*',
          lazy: async () => ({
            Component: (await import('@/features/admin/admin-not-found-page.tsx')).AdminNotFoundPage,
          }),
        },
      ],
    },
  ]),
]);

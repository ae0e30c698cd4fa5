import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { SiteFooter } from '@/components/layouts/site-footer.tsx';
import { SiteHeader } from '@/components/layouts/site-header.tsx';
import { SkipLink } from '@/components/layouts/skip-link.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';

/**
 * Visitors' and learners' pages: navigation bar, the page, footer. The page is at least as tall as
 * the screen, so the footer starts below it: a page that grows as its data arrive (a skeleton
 * replaced by the content) moves nothing the user sees.
 * As `frame`, it is what the server sends for a learner's page (decision 038): the bar with the
 * learner's links and the page's place loading, until the app draws the page.
 */
export function PublicLayout({ frame = false }: { frame?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader frame={frame} />
      <main id="main-content" tabIndex={-1} className="flex min-h-dvh flex-1 flex-col outline-none">
        {/* Only seen while a page's code is still downloading. */}
        {frame ? (
          <PageLoading />
        ) : (
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}

function PageLoading() {
  return (
    <div className="flex flex-1 items-center justify-center py-20">
      <Spinner size="lg" />
    </div>
  );
}

import { Outlet, ScrollRestoration } from 'react-router-dom';
import { SiteFooter } from '@/components/layouts/site-footer.tsx';
import { SiteHeader } from '@/components/layouts/site-header.tsx';
import { SkipLink } from '@/components/layouts/skip-link.tsx';

/** Visitors' and learners' pages: navigation bar, the page, footer. */
export function PublicLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}

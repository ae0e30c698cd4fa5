import '@/lib/zod-without-eval.ts';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { TVisitorView } from '../shared/prerender.ts';
import type { TCourse } from '../shared/schemas/course.ts';
import type { TSiteConfig } from '../shared/site-config.ts';
import { App } from '@/app/app.tsx';
import { preloadFirstScreen } from '@/app/router.tsx';
import { AdminLayout } from '@/components/layouts/admin-layout.tsx';
import { PublicLayout } from '@/components/layouts/public-layout.tsx';
import { SCREEN_ROUTES } from '@/config/routes.ts';
import { provideInlinedCatalogue } from '@/features/catalogue/api/use-catalogue.ts';
import { withPageHead } from '@/lib/page-head.ts';
import { provideSiteConfig } from '@/lib/site-config.ts';

/*
 * The server's rendering of the public pages (decision 026) and of the frames of the signed-in
 * ones (decision 038), built apart from the browser's code (`vite build --ssr`,
 * dist/ssr/prerender.js) and loaded by the server. A public page is the same tree as main.tsx
 * renders, as a visitor sees it, so the browser paints the page before its code arrives and then
 * hydrates it.
 */

/** The pages rendered ahead of their code: the public screens a visitor opens first (`prerendered` in config/routes.ts). */
export const PRERENDERED_PATHS: readonly string[] = SCREEN_ROUTES.filter((route) => route.prerendered).map((route) => route.pattern);

export type TPrerenderData = { site: TSiteConfig; catalogue?: TCourse[] };

/**
 * The markup of `pathname`'s page for a visitor, with the academy's details and (on /courses) the
 * catalogue, and the title and description the page sets.
 */
export async function renderPage(pathname: string, data: TPrerenderData): Promise<TVisitorView> {
  provideSiteConfig(data.site);
  await preloadFirstScreen(pathname);
  // Loaded by the router when a page needs it, as in the browser.
  const { forgetQueries } = await import('@/app/providers.tsx');
  // One render at a time (renderToString is synchronous): each starts from an empty cache and
  // sees only the data it was given.
  forgetQueries();
  provideInlinedCatalogue(data.catalogue);
  try {
    return withPageHead(() => renderToString(<App Router={({ children }) => <StaticRouter location={pathname}>{children}</StaticRouter>} />));
  } finally {
    provideInlinedCatalogue(undefined);
    forgetQueries();
  }
}

/**
 * The markup of the frame the server sends for the signed-in page at route `pattern` (decision
 * 038): its layout as its user sees it, with the page's place loading, or undefined for a page
 * that has none. The browser's app replaces it with the page once its code has come. A frame holds
 * nothing of the user's: the server does not know who is asking.
 */
export function renderFrame(pattern: string, data: { site: TSiteConfig }): string | undefined {
  const area = SCREEN_ROUTES.find((route) => route.pattern === pattern)?.area;
  if (area !== 'learner' && area !== 'admin') return undefined;
  provideSiteConfig(data.site);
  return renderToString(<StaticRouter location={pattern}>{area === 'admin' ? <AdminLayout frame /> : <PublicLayout frame />}</StaticRouter>);
}

import '@/lib/zod-without-eval.ts';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { TVisitorView } from '../shared/prerender.ts';
import type { TCourse } from '../shared/schemas/course.ts';
import type { TSiteConfig } from '../shared/site-config.ts';
import { App } from '@/app/app.tsx';
import { paths } from '@/app/paths.ts';
import { preloadFirstScreen } from '@/app/router.tsx';
import { provideInlinedCatalogue } from '@/features/enrolments/api/use-catalogue.ts';
import { withPageHead } from '@/lib/page-head.ts';
import { provideSiteConfig } from '@/lib/site-config.ts';

/*
 * The server's rendering of the public pages (decision 026), built apart from the browser's code
 * (`vite build --ssr`, dist/ssr/prerender.js) and loaded by the server. It renders the same tree
 * as main.tsx, as a visitor sees it, so the browser paints the page before its code arrives and
 * then hydrates it.
 */

/** The pages rendered ahead of their code: the public screens a visitor opens first. */
export const PRERENDERED_PATHS: readonly string[] = [paths.home, paths.about, paths.courses, paths.login, paths.registration];

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

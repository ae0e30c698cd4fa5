import { siteRouter } from './modules/site/site.router.ts';
import { createRouter } from './trpc/init.ts';

/** The client's API. The client imports this file's type and nothing else from the server. */
export const appRouter = createRouter({
  site: siteRouter,
});

export type AppRouter = typeof appRouter;

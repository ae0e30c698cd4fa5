// eslint-disable-next-line no-restricted-imports -- the build's configuration reads this file outside Vite's resolver, where '@/' means nothing
import { paths } from '../config/paths.ts';
// eslint-disable-next-line no-restricted-imports -- as above
import { SCREEN_ROUTES, screenModules } from '../config/routes.ts';

/*
 * The modules (under src/client) whose chunks each client route needs beyond the entry, derived
 * from the route table (config/routes.ts). The build (build/route-chunks.ts) turns this into the
 * list of chunk files per route, and the server puts them in the page as <link rel="modulepreload">,
 * so a deep link fetches a screen's code in parallel with the entry (decision 020).
 */
/** The screens beyond the entry (the not-found page is every other address: no preloads). */
const routes = SCREEN_ROUTES.filter((route) => route.chunk !== 'entry' && route.pattern !== '*');
const verify = SCREEN_ROUTES.find((route) => route.pattern === paths.verifyCertificate.pattern)!;

export const ROUTE_CODE: Record<string, string[]> = Object.fromEntries([
  // The server's pattern '/verify/*' needs a segment after /verify, so the bare page is listed too.
  [paths.verify, screenModules(verify)],
  ...routes.map((route) => [route.pattern, screenModules(route)]),
]);

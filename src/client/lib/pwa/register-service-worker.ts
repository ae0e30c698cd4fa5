import { Workbox, messageSW } from 'workbox-window';
import { paths } from '@/config/paths.ts';

/*
 * Registers the portal's service worker (build/service-worker.ts), once someone is signed in: a
 * visitor's pages never load this file nor the worker (app/session-watch.tsx imports it only then).
 * The worker stays after logout: it is the site's, and holds nothing of a learner's (their data is
 * in the per-user query cache, removed at logout).
 */

export const SERVICE_WORKER_URL = '/sw.js';
/** The page's HTML, as a navigation asks for it (the server answers a page only to such a request). */
const AS_PAGE: RequestInit = { headers: { accept: 'text/html' } };

let registering: Promise<void> | undefined;

/**
 * Registers the worker after the page has loaded (its precache then does not compete with the
 * page's own code), then asks it to keep the page the learner is on, the dashboard and the login
 * page: all were fetched before the worker existed (the dashboard is shown for a learner page never
 * opened online; logging out lands on the login page). A browser without service workers, or a refusal, leaves the app as it was: online only.
 */
export function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return Promise.resolve();
  registering ??= afterLoad().then(async () => {
    try {
      const workbox = new Workbox(SERVICE_WORKER_URL, { scope: '/' });
      // A new build's worker: the pages kept by the last one name its files, which the new one no
      // longer keeps; fetch them again, once, so each opens offline with the files that are kept.
      workbox.addEventListener('activated', (event) => {
        if (event.isUpdate) void keepPages(keptPages()).catch(() => undefined);
      });
      await workbox.register();
      const here = `${window.location.pathname}${window.location.search}`;
      // The login page too: logging out with no link lands there.
      await keepPages(Promise.resolve([paths.dashboard, here, paths.login]));
    } catch {
      // No worker: the portal works online as before.
    }
  });
  return registering;
}

/** Asks the active worker to fetch and keep these pages (those it keeps as learner pages). */
async function keepPages(urls: Promise<string[]>): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  if (!registration.active) return;
  const urlsToCache = [...new Set(await urls)].map((url) => [url, AS_PAGE]);
  if (urlsToCache.length > 0) await messageSW(registration.active, { type: 'CACHE_URLS', payload: { urlsToCache } });
}

/** The addresses of the pages the worker keeps (its 'pages' cache, build/service-worker.ts). */
async function keptPages(): Promise<string[]> {
  const requests = await (await caches.open('pages')).keys();
  return requests.map((request) => {
    const url = new URL(request.url);
    return `${url.pathname}${url.search}`;
  });
}

function afterLoad(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

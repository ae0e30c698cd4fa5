import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { paths } from '../src/client/config/paths.ts';
import { SESSION_LIFETIME_DAYS } from '../src/shared/constants.ts';
import { SCREEN_ROUTES, type TScreenRoute } from '../src/client/config/routes.ts';

/*
 * The service worker that makes the portal an installable app that opens at sea (decision 050):
 * Workbox's generateSW through vite-plugin-pwa, configured here, nothing hand-written but one
 * fallback callback. The page registers it itself, and only once someone is signed in
 * (src/client/lib/pwa/register-service-worker.ts): a visitor's first page fetches none of it.
 *
 * What it keeps:
 *   - precache: the build's scripts and stylesheets, by their hashed names, and the app's icons;
 *     not the administration area's own files (learners would download them for nothing, and an
 *     administrator works online), nor the fonts (only the public certificate check uses them).
 *     Not index.html: it is a template the server fills per route (src/server/spa.ts), so it is
 *     never a file to keep.
 *   - 'pages': the learner's pages as the server sent them (each a user-neutral frame: the app
 *     draws the learner's data from its own persisted cache), network first, the cached copy after
 *     LEARNER_PAGE_TIMEOUT_SECONDS without an answer. A learner page never seen online answers the
 *     cached dashboard: the router draws the right screen from the address. The login page too
 *     (a visitor's page, nothing of anyone's in it): logging out at sea lands there.
 *   - 'images': course pictures and training posters, cache first (a poster's signed link changes,
 *     the picture does not: the query string is ignored when matching).
 * What it never keeps: /trpc, /api/session and every other API answer, the media streams (a
 * downloaded course lives in the app's own store, src/client/lib/offline), profile pictures and
 * documents, the public pages.
 * The offline watching's sync (POST /api/trainingVideo/offline/sync) that fails for want of a link
 * is queued and replayed by Background Sync when the link returns, for up to a week; so is a logout
 * (POST /api/session/logout) made at sea, for as long as the session it ends could have lasted.
 * The page sends that logout too, before any other call (src/client/lib/session/session-calls.ts): the
 * session id in its body makes whichever copy comes second harmless.
 */

/** The cache of the learner pages' HTML (read by the fallback callback below by this literal name). */
export const PAGES_CACHE = 'pages';
export const IMAGES_CACHE = 'images';
export const OFFLINE_SYNC_QUEUE = 'offline-watching';
export const LOGOUT_QUEUE = 'logout';
/** A ship's link answering slower than this: the page the device keeps is shown instead. */
const LEARNER_PAGE_TIMEOUT_SECONDS = 4;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * Every learner page's address, from the route table, and the login page (where logging out
 * lands, also at sea), as one pattern over a whole URL (Workbox
 * tests a RegExp route against `url.href`, and the pattern is written into sw.js as it is, so it
 * cannot call code). Paths match without regard to case, with or without a trailing slash, as the
 * client's router and the server (spa.ts) match them.
 */
export function learnerPagePattern(routes: readonly TScreenRoute[] = SCREEN_ROUTES): RegExp {
  const patterns = routes
    .filter((route) => route.area === 'learner' || route.pattern === paths.login)
    .map((route) =>
      route.pattern
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/?#]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/'),
    );
  return new RegExp(`^https?://[^/]+(?:${patterns.join('|')})/?(?:[?#].*)?$`, 'i');
}

/** Course pictures (public uploads) and training posters (signed file links), by their file type. */
export const PICTURE_PATTERN = /^https?:\/\/[^/]+\/api\/(?:uploads\/courseImg|files\/trainingVideo)\/[^/?#]+\.(?:jpe?g|png|webp|avif|gif)(?:[?#].*)?$/i;
export const OFFLINE_SYNC_PATTERN = /^https?:\/\/[^/]+\/api\/trainingVideo\/offline\/sync(?:[?#].*)?$/;
export const LOGOUT_PATTERN = /^https?:\/\/[^/]+\/api\/session\/logout(?:[?#].*)?$/;

/**
 * Whether a file of the build belongs to the administration area alone: the build names each
 * file after the areas whose screens load it ('admin-forms', 'account_admin-forms_profile-form',
 * see build/chunk-groups.ts), as the Vite manifest records.
 */
export function adminOnlyFiles(viteManifest: Record<string, { file: string; name?: string }>): Set<string> {
  const files = new Set<string>();
  for (const chunk of Object.values(viteManifest)) {
    if (chunk.name && chunk.name.split('_').every((area) => area.startsWith('admin'))) files.add(chunk.file);
  }
  return files;
}

/** `clientOutDir`: where the browser's build is written (its .vite/manifest.json is read once it is). */
export function serviceWorker(clientOutDir: string): Plugin[] {
  return VitePWA({
    strategies: 'generateSW',
    // A new build's worker takes over as soon as it is installed (skipWaiting, clientsClaim
    // below), without reloading the page: no prompt for a learner to answer, nothing reloaded
    // under a video or a test. The next page opened runs the new code.
    registerType: 'autoUpdate',
    injectRegister: false,
    // The manifest carries the academy's configured name, so the server writes it (src/server/web-manifest.ts).
    manifest: false,
    filename: 'sw.js',
    workbox: {
      globPatterns: ['assets/**/*.{js,css}', 'icons/*.png', 'favicon.svg'],
      manifestTransforms: [
        (entries) => {
          const manifestFile = path.join(clientOutDir, '.vite', 'manifest.json');
          if (!existsSync(manifestFile)) return { manifest: entries, warnings: ['no Vite manifest: the admin files are precached too'] };
          const adminOnly = adminOnlyFiles(JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; name?: string }>);
          return { manifest: entries.filter((entry) => !adminOnly.has(entry.url)), warnings: [] };
        },
      ],
      navigateFallback: null,
      skipWaiting: true,
      clientsClaim: true,
      cleanupOutdatedCaches: true,
      // Only developer tools read it; the worker is small.
      sourcemap: false,
      runtimeCaching: [
        {
          urlPattern: learnerPagePattern(),
          handler: 'NetworkFirst',
          options: {
            cacheName: PAGES_CACHE,
            networkTimeoutSeconds: LEARNER_PAGE_TIMEOUT_SECONDS,
            cacheableResponse: { statuses: [200] },
            // No network and no copy of this page: the dashboard's page, whose app draws the screen
            // the address names. Written into sw.js as it is: it names the cache by its literal.
            plugins: [{ handlerDidError: async () => (await caches.open('pages')).match('/dashboard') }],
          },
        },
        {
          urlPattern: PICTURE_PATTERN,
          handler: 'CacheFirst',
          options: {
            cacheName: IMAGES_CACHE,
            matchOptions: { ignoreSearch: true },
            cacheableResponse: { statuses: [200] },
            expiration: { maxEntries: 200, maxAgeSeconds: 30 * DAY_SECONDS, purgeOnQuotaError: true },
          },
        },
        {
          urlPattern: OFFLINE_SYNC_PATTERN,
          method: 'POST',
          handler: 'NetworkOnly',
          options: { backgroundSync: { name: OFFLINE_SYNC_QUEUE, options: { maxRetentionTime: 7 * 24 * 60 } } },
        },
        {
          urlPattern: LOGOUT_PATTERN,
          method: 'POST',
          handler: 'NetworkOnly',
          options: { backgroundSync: { name: LOGOUT_QUEUE, options: { maxRetentionTime: SESSION_LIFETIME_DAYS * 24 * 60 } } },
        },
      ],
    },
  });
}

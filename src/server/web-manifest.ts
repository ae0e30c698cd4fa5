import type { FastifyPluginAsync } from 'fastify';
import type { TSiteConfig } from '../shared/site-config.ts';

/*
 * The web app manifest that lets the portal be installed as an app (decision 050), at
 * /manifest.webmanifest, which every page links (src/client/index.html). The server writes it,
 * not the build, because it carries the academy's name from the operator's configuration. The app
 * opens on the learner's dashboard; its colours are the site's navy (styles.css --color-navy-900)
 * and white page; the icons are drawn from the favicon (scripts/make-app-icons.ts).
 */

export const WEB_MANIFEST_PATH = '/manifest.webmanifest';
/** styles.css --color-navy-900, the colour of the bar and of the pages' theme-color. */
const THEME_COLOUR = '#0b2545';
/** styles.css --color-background. */
const BACKGROUND_COLOUR = '#ffffff';
/** Launchers cut longer labels short. */
const SHORT_NAME_LENGTH = 12;

/** The name under the icon: the academy's name when it fits, else its first word (or the start of it). */
export function shortNameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length <= SHORT_NAME_LENGTH) return trimmed;
  const firstWord = trimmed.split(/\s+/)[0]!;
  return firstWord.length <= SHORT_NAME_LENGTH ? firstWord : trimmed.slice(0, SHORT_NAME_LENGTH);
}

export function webManifest(site: TSiteConfig) {
  return {
    id: '/dashboard',
    name: site.name,
    short_name: shortNameOf(site.name),
    description: site.tagline,
    lang: 'en',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: BACKGROUND_COLOUR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/** GET /manifest.webmanifest, written once from the site's configuration. */
export const webManifestRoute: FastifyPluginAsync<{ site: TSiteConfig }> = async (app, { site }) => {
  const body = JSON.stringify(webManifest(site));
  app.get(WEB_MANIFEST_PATH, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('application/manifest+json; charset=utf-8').send(body),
  );
};

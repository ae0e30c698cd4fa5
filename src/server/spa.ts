import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { ENTRY_ATTRIBUTE, PAGE_HEAD_SCRIPT, PRERENDERED_ATTRIBUTE, type TVisitorView } from '../shared/prerender.ts';
import type { TCourse } from '../shared/schemas/course.ts';
import { SITE_CONFIG_MARKER, type TSiteConfig } from '../shared/site-config.ts';
import { escapeMarkup } from './lib/markup.ts';

/**
 * The client's index.html with the academy's configuration written into it, read once at start.
 * `<` is escaped so no configured value can close the script element.
 */
export function loadIndexHtml(clientDir: string | undefined, site: TSiteConfig): string | undefined {
  if (!clientDir) return undefined;
  const file = path.join(clientDir, 'index.html');
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').replace(SITE_CONFIG_MARKER, jsonForScript(site));
}

/** JSON that can sit inside a <script> element: no `<` can close it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A route pattern of the client ('/courses/:courseId/content', '/admin-dashboard/*') as a test. */
function patternTest(pattern: string): RegExp {
  const escaped = pattern
    .split('/')
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // The client's router matches without regard to case, and with or without a trailing slash.
  return new RegExp(`^${escaped}/?$`, 'i');
}

export type TRouteChunks = {
  /** The route pattern a path belongs to (for caching per route), and the chunks it needs. */
  match(pathname: string): { pattern: string; files: string[] } | undefined;
};

/**
 * The chunks each client route needs beyond the entry (route-chunks.json, written by the build,
 * build/route-chunks.ts). The page preloads them so they download in parallel with the entry.
 */
export function loadRouteChunks(clientDir: string | undefined): TRouteChunks {
  const file = clientDir && path.join(clientDir, 'route-chunks.json');
  const routes = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>) : {};
  const tests = Object.entries(routes).map(([pattern, files]) => ({ pattern, files, test: patternTest(pattern) }));
  return {
    match(pathname) {
      const found = tests.find(({ test }) => test.test(pathname));
      return found && { pattern: found.pattern, files: found.files };
    },
  };
}

/** `html` with these lines added at the end of its head. */
export function withHeadLines(html: string, lines: string[]): string {
  if (lines.length === 0) return html;
  return html.replace('</head>', `${lines.map((line) => `    ${line}\n`).join('')}  </head>`);
}

export const modulePreloads = (files: string[]) => files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`);

/** The client's renderer of its public pages (src/client/prerender.tsx, built to dist/ssr). */
export type TPrerenderer = {
  /** The route patterns it renders. */
  paths: readonly string[];
  render(pathname: string, data: { site: TSiteConfig; catalogue?: TCourse[] }): Promise<TVisitorView>;
};

/**
 * The renderer the build wrote beside the client (dist/ssr/prerender.js), or undefined when there
 * is none: the pages then come without a visitor's view, and the browser renders them.
 */
export async function loadPrerenderer(clientDir: string | undefined, logger: FastifyBaseLogger): Promise<TPrerenderer | undefined> {
  if (!clientDir) return undefined;
  const file = path.join(clientDir, '..', 'ssr', 'prerender.js');
  if (!existsSync(file)) return undefined;
  try {
    const module = (await import(pathToFileURL(file).href)) as { PRERENDERED_PATHS: readonly string[]; renderPage: TPrerenderer['render'] };
    return { paths: module.PRERENDERED_PATHS, render: module.renderPage };
  } catch (error) {
    logger.error({ err: error, file }, 'the page renderer did not load; pages are sent for the browser to render');
    return undefined;
  }
}

/**
 * `html` with the visitor's view of its page in the root element (marked, for the client to
 * hydrate it) and, before anything paints, the head script: it hides that view from a signed-in
 * user and runs the page's code when the visitor first uses the page (decision 033). The code is
 * preloaded, not run: its scripts become preload links the head script finds.
 */
export function withVisitorView(html: string, view: TVisitorView | undefined): string {
  if (view === undefined) return html;
  const { markup, title, description } = view;
  return (
    withHeadLines(html, [`<script>${PAGE_HEAD_SCRIPT}</script>`])
      // The title and description the page would set once running (crawlers and the tab see them now).
      .replace(/<title>[^<]*<\/title>/, (tag) => (title === undefined ? tag : `<title>${escapeMarkup(title)}</title>`))
      .replace(/<meta name="description" content="[^"]*" \/>/, (tag) => (description === undefined ? tag : `<meta name="description" content="${escapeMarkup(description)}" />`))
      .replace('<div id="root"></div>', () => `<div id="root" ${PRERENDERED_ATTRIBUTE}>${markup}</div>`)
      .replaceAll(/<script type="module" crossorigin src="([^"]+)"><\/script>/g, `<link rel="modulepreload" crossorigin href="$1" ${ENTRY_ATTRIBUTE}>`)
      // The page shows without its code: the stylesheet and the first pictures go first, the code
      // (the entry and every preloaded chunk) after them rather than ahead of them.
      .replaceAll('<link rel="modulepreload" crossorigin ', '<link rel="modulepreload" crossorigin fetchpriority="low" ')
  );
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { CODE_ATTRIBUTE, ENTRY_ATTRIBUTE, FRAME_ATTRIBUTE, PAGE_HEAD_SCRIPT, PRERENDERED_ATTRIBUTE, type TVisitorView } from '../shared/prerender.ts';
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

/** The client's stylesheets by their address in index.html ('/assets/framework-….css'), read once at start. */
export type TStylesheets = ReadonlyMap<string, string>;

const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g;

/**
 * The text of every stylesheet index.html links, for the server-drawn pages to carry inline. A
 * file that is missing, or whose text could close a <style> element, is left out: its page links
 * it as before.
 */
export function loadStylesheets(clientDir: string | undefined, indexHtml: string | undefined): TStylesheets {
  const sheets = new Map<string, string>();
  if (!clientDir || !indexHtml) return sheets;
  for (const [, href] of indexHtml.matchAll(STYLESHEET_LINK)) {
    const file = path.join(clientDir, href!);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (!/<\/style/i.test(text)) sheets.set(href!, text);
  }
  return sheets;
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

/** The client's renderer of its public pages and signed-in frames (src/client/prerender.tsx, built to dist/ssr). */
export type TPrerenderer = {
  /** The route patterns it renders. */
  paths: readonly string[];
  render(pathname: string, data: { site: TSiteConfig; catalogue?: TCourse[] }): Promise<TVisitorView>;
  /** The frame of the signed-in page at a route pattern, or undefined when it has none (decision 038). */
  frame(pattern: string, data: { site: TSiteConfig }): string | undefined;
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
    const module = (await import(pathToFileURL(file).href)) as {
      PRERENDERED_PATHS: readonly string[];
      renderPage: TPrerenderer['render'];
      renderFrame: TPrerenderer['frame'];
    };
    return { paths: module.PRERENDERED_PATHS, render: module.renderPage, frame: module.renderFrame };
  } catch (error) {
    logger.error({ err: error, file }, 'the page renderer did not load; pages are sent for the browser to render');
    return undefined;
  }
}

/**
 * `html` with each stylesheet it links carried inline. The link stays, disabled, after its text:
 * the browser fetches nothing for a disabled stylesheet, and the code's loader of a lazy screen,
 * which fetches a screen's stylesheet and waits for it unless the page links it already, finds it
 * there rather than downloading the same file again before the screen can show.
 */
const withInlineStylesheets = (html: string, stylesheets: TStylesheets) =>
  html.replace(STYLESHEET_LINK, (link, href: string) => {
    const text = stylesheets.get(href);
    return text === undefined ? link : `<style>${text}</style>${link.replace(/>$/, ' disabled>')}`;
  });

/**
 * `html` with the frame of its signed-in page in the root element (decision 038), marked for the
 * app to replace, and its stylesheets inline: the frame paints from the HTML alone, while the
 * page's code (its module scripts and preloads, unchanged) comes.
 */
export function withFrame(html: string, frame: string | undefined, stylesheets: TStylesheets): string {
  if (frame === undefined) return html;
  return withInlineStylesheets(html.replace('<div id="root"></div>', () => `<div id="root" ${FRAME_ATTRIBUTE}>${frame}</div>`), stylesheets);
}

/**
 * `html` with the visitor's view of its page in the root element (marked, for the client to
 * hydrate it) and, before anything paints, the head script: it hides that view from a signed-in
 * user, fetches the page's code once the page has painted, and runs it when the visitor first
 * uses the page (decision 033). The page's scripts and module preloads become links without a
 * `rel`, which fetch nothing until the head script makes them preloads. Its stylesheets come
 * inline (`stylesheets`): the page paints from its HTML alone (decision 037).
 */
export function withVisitorView(html: string, view: TVisitorView | undefined, stylesheets: TStylesheets): string {
  if (view === undefined) return html;
  const codeLink = `<link ${CODE_ATTRIBUTE} crossorigin fetchpriority="low" href=`;
  const { markup, title, description } = view;
  return (
    withInlineStylesheets(withHeadLines(html, [`<script>${PAGE_HEAD_SCRIPT}</script>`]), stylesheets)
      // The title and description the page would set once running (crawlers and the tab see them now).
      .replace(/<title>[^<]*<\/title>/, (tag) => (title === undefined ? tag : `<title>${escapeMarkup(title)}</title>`))
      .replace(/<meta name="description" content="[^"]*" \/>/, (tag) => (description === undefined ? tag : `<meta name="description" content="${escapeMarkup(description)}" />`))
      .replace('<div id="root"></div>', () => `<div id="root" ${PRERENDERED_ATTRIBUTE}>${markup}</div>`)
      // The page shows without its code: the stylesheet and the first pictures go first, the code
      // (the entry and every preloaded chunk) after the first paint, at low priority.
      .replaceAll(/<script type="module" crossorigin src="([^"]+)"><\/script>/g, `${codeLink}"$1" ${ENTRY_ATTRIBUTE}>`)
      .replaceAll('<link rel="modulepreload" crossorigin href=', codeLink)
  );
}

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { FRAME_CHUNKS, SCREEN_ROUTES, type TScreenRoute } from '../client/config/routes.ts';
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

/** The manifest's record of one output file (Vite's build.manifest). */
type TManifestChunk = { file: string; name?: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[] };

/** What a page loads of the client's code, read from the build's manifest (dist/client/.vite/manifest.json). */
export type TClientCode = {
  /** The entry's script, the files it imports and the stylesheets it loads, by address ('/assets/main-….js'). */
  entry: { script: string; imports: string[]; stylesheets: string[] };
  /** The route pattern a path belongs to (for caching per route), and the files it preloads beyond the entry. */
  match(pathname: string): { pattern: string; files: string[] } | undefined;
  /** Routes whose screen the manifest does not name (a module or chunk renamed since the build): their pages preload nothing. */
  unplaced: string[];
};

/**
 * The client's code as the build's manifest lists it, or undefined when there is none (the page
 * is then sent as index.html is). Each route of config/routes.ts preloads the file of its screen
 * (its `chunk`, or the module's own file), the frames it comes inside, and everything those import
 * statically, less what the entry loads: the whole screen downloads in one round, in parallel
 * with the entry (decision 020).
 */
export function loadClientCode(clientDir: string | undefined, routes: readonly TScreenRoute[] = SCREEN_ROUTES): TClientCode | undefined {
  const file = clientDir && path.join(clientDir, '.vite', 'manifest.json');
  if (!file || !existsSync(file)) return undefined;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, TManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) return undefined;
  const withImports = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key]!.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return seen;
  };
  const loadedByEntry = withImports([entryKey]);
  // A module the build kept as a file of its own is listed by its path; one placed in a group's
  // file is found by the group's name.
  const chunksOf = (moduleOrName: string) => Object.keys(manifest).filter((key) => key === moduleOrName || manifest[key]!.name === moduleOrName);
  const address = (key: string) => `/${manifest[key]!.file}`;
  const unplaced: string[] = [];
  const tests = routes.map((route) => {
    const starts = route.chunk === 'entry' ? [] : [...chunksOf(route.module), ...chunksOf(route.chunk)];
    if (route.chunk !== 'entry' && starts.length === 0) unplaced.push(route.pattern);
    if (route.chunk !== 'entry' && route.dataProviders !== false) starts.push(...chunksOf(FRAME_CHUNKS.dataProviders));
    if (route.area === 'admin') starts.push(...chunksOf(FRAME_CHUNKS.admin));
    const files = [...withImports(starts)].filter((key) => !loadedByEntry.has(key)).map(address);
    return { pattern: route.pattern, files, test: patternTest(route.pattern) };
  });
  const stylesheets = [...loadedByEntry].flatMap((key) => manifest[key]!.css ?? []).map((css) => `/${css}`);
  return {
    entry: {
      script: address(entryKey),
      imports: [...loadedByEntry].filter((key) => key !== entryKey).map(address),
      stylesheets: [...new Set(stylesheets)],
    },
    match(pathname) {
      const found = tests.find(({ test }) => test.test(pathname));
      return found && { pattern: found.pattern, files: found.files };
    },
    unplaced,
  };
}

/** The client's stylesheets by their address ('/assets/main-….css'), read once at start. */
export type TStylesheets = ReadonlyMap<string, string>;

/**
 * The text of every stylesheet the entry loads, for the server-drawn pages to carry inline. A
 * file that is missing, or whose text could close a <style> element, is left out: its page links
 * it as before.
 */
export function loadStylesheets(clientDir: string | undefined, code: TClientCode | undefined): TStylesheets {
  const sheets = new Map<string, string>();
  if (!clientDir || !code) return sheets;
  for (const href of code.entry.stylesheets) {
    const file = path.join(clientDir, href);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (!/<\/style/i.test(text)) sheets.set(href, text);
  }
  return sheets;
}

/**
 * A route pattern of the client ('/courses/:courseId/content', '/verify/*') as a test. Like the
 * client's router, a splat also matches nothing ('/verify'), and paths match without regard to
 * case, with or without a trailing slash.
 */
function patternTest(pattern: string): RegExp {
  if (pattern === '*') return /^\//;
  const splat = pattern.endsWith('/*');
  const escaped = (splat ? pattern.slice(0, -2) : pattern)
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}${splat ? '(?:/.*)?' : '/?'}$`, 'i');
}

/** `html` with these lines added at the end of its head. */
export function withHeadLines(html: string, lines: string[]): string {
  if (lines.length === 0) return html;
  return html.replace('</head>', `${lines.map((line) => `    ${line}\n`).join('')}  </head>`);
}

/** What one page loads of the client's code: the entry, the route's files, the stylesheets. */
export type TPageCode = { entry: string; preloads: readonly string[]; stylesheets: readonly string[] };

/**
 * The code of a page: the entry, what the entry imports and the route's files (from the
 * manifest), all named by the page so they download in one round rather than each after the file
 * that imports it.
 */
export const pageCode = (code: TClientCode, routeFiles: readonly string[] = []): TPageCode => ({
  entry: code.entry.script,
  preloads: [...code.entry.imports, ...routeFiles],
  stylesheets: code.entry.stylesheets,
});

/**
 * The head lines that load a page's code. A page the browser draws runs the entry at once and
 * preloads the route's files. A stylesheet in `inline` comes as a <style> element, its link kept
 * disabled after it: the browser fetches nothing for a disabled stylesheet, and the code's loader
 * of a lazy screen, which fetches a screen's stylesheet unless the page links it already, finds
 * it there rather than downloading the same file again (decision 039). `held`: the entry and the
 * files are named, without a `rel` that would fetch them, for the head script to fetch after the
 * first paint and run on the visitor's first use (decisions 033, 037).
 */
export function codeLines(code: TPageCode, options: { inline?: TStylesheets; held?: boolean } = {}): string[] {
  const stylesheets = code.stylesheets.map((href) => {
    const text = options.inline?.get(href);
    const link = `<link rel="stylesheet" crossorigin href="${href}"`;
    return text === undefined ? `${link}>` : `<style>${text}</style>${link} disabled>`;
  });
  if (options.held) {
    const codeLink = `<link ${CODE_ATTRIBUTE} crossorigin fetchpriority="low" href=`;
    return [...stylesheets, `${codeLink}"${code.entry}" ${ENTRY_ATTRIBUTE}>`, ...code.preloads.map((file) => `${codeLink}"${file}">`)];
  }
  return [
    `<script type="module" crossorigin src="${code.entry}"></script>`,
    ...stylesheets,
    ...code.preloads.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`),
  ];
}

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
 * `html` with the frame of its signed-in page in the root element (decision 038), marked for the
 * app to replace, and its stylesheets inline: the frame paints from the HTML alone, while the
 * page's code (its module script and preloads, as on any page the browser draws) comes.
 */
export function withFrame(html: string, frame: string | undefined, code: TPageCode, stylesheets: TStylesheets): string {
  if (frame === undefined) return withHeadLines(html, codeLines(code));
  return withHeadLines(html, codeLines(code, { inline: stylesheets })).replace('<div id="root"></div>', () => `<div id="root" ${FRAME_ATTRIBUTE}>${frame}</div>`);
}

/**
 * `html` with the visitor's view of its page in the root element (marked, for the client to
 * hydrate it) and, before anything paints, the head script: it hides that view from a signed-in
 * user, fetches the page's code once the page has painted, and runs it when the visitor first
 * uses the page (decision 033). The page's code comes as links without a `rel`, which fetch
 * nothing until the head script makes them preloads, and its stylesheets inline: the page paints
 * from its HTML alone (decision 037). Without a view, the page loads its code as usual.
 */
export function withVisitorView(html: string, view: TVisitorView | undefined, code: TPageCode, stylesheets: TStylesheets): string {
  if (view === undefined) return withHeadLines(html, codeLines(code));
  const { markup, title, description } = view;
  return (
    withHeadLines(html, [...codeLines(code, { inline: stylesheets, held: true }), `<script>${PAGE_HEAD_SCRIPT}</script>`])
      // The title and description the page would set once running (crawlers and the tab see them now).
      .replace(/<title>[^<]*<\/title>/, (tag) => (title === undefined ? tag : `<title>${escapeMarkup(title)}</title>`))
      .replace(/<meta name="description" content="[^"]*" \/>/, (tag) => (description === undefined ? tag : `<meta name="description" content="${escapeMarkup(description)}" />`))
      .replace('<div id="root"></div>', () => `<div id="root" ${PRERENDERED_ATTRIBUTE}>${markup}</div>`)
  );
}

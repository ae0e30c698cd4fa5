import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, CDPSession, Page } from 'playwright-core';

/*
 * One page load as Chromium saw it: every request with its timing and the bytes that came over
 * the wire (CDP Network events), Largest Contentful Paint and Cumulative Layout Shift. Used by the
 * browser tests and by `npm run bench`.
 */

export type TRequest = {
  url: string;
  type: string;
  /** Milliseconds since navigation start. */
  start: number;
  end: number;
  /** Bytes on the wire (headers and compressed body). */
  transferred: number;
  /** Bytes of the body once decoded (uncompressed). */
  decoded: number;
  encoding: string | undefined;
  mime: string;
  status: number;
  /** What started the request: `parser`, or `script <address of the script>`, ... */
  initiator: string;
};

/**
 * Whether the page itself named this request: its markup, or its inline head script (which has
 * no file of its own), rather than a script file that had to arrive and run first.
 */
export const namedByThePage = (request: TRequest) => request.initiator === 'parser' || (request.initiator.startsWith('script ') && !/\.m?js(\?|$)/.test(request.initiator));

export type TPageLoad = {
  requests: TRequest[];
  scripts: TRequest[];
  jsTransferred: number;
  totalTransferred: number;
  /** First contentful paint: when the page first showed anything. */
  fcp: number | undefined;
  lcp: number | undefined;
  cls: number;
  /** Every layout shift without recent input, with the elements that moved. */
  shifts: TLayoutShift[];
  /** When the first course card was in the document (only when `cardsSelector` is given). */
  firstCards: number | undefined;
  /** When the main thread was free and the page's own requests had ended. */
  interactive: number;
};

/** The 'Slow 3G'-like link of a ship: 400 kbit/s both ways, 400 ms round trip. */
export const SHIP_LINK = { latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };

/** One layout shift: when, how much, and the elements that moved (selector, text, rectangles). */
export type TLayoutShift = { at: number; value: number; sources: string[] };

const OBSERVE = `
  window.__vitals = { lcp: undefined, cls: 0, shifts: [] };
  const name = (node) => {
    if (!node || node.nodeType !== 1) return node ? node.nodeName : '(gone)';
    const classes = typeof node.className === 'string' ? node.className.trim().split(/\\s+/).slice(0, 3).join('.') : '';
    return node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + (classes ? '.' + classes : '') + ' "' + (node.textContent || '').trim().slice(0, 30) + '"';
  };
  const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(',');
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__vitals.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__vitals.cls += e.value;
      window.__vitals.shifts.push({
        at: Math.round(e.startTime),
        value: Number(e.value.toFixed(4)),
        sources: (e.sources || []).map((s) => name(s.node) + ' ' + rect(s.previousRect) + ' -> ' + rect(s.currentRect)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

/** Records the page's Largest Contentful Paint and layout shifts from its start (before it loads). */
export const observeVitals = (page: Page) => page.addInitScript(OBSERVE);

/** What `observeVitals` has recorded so far. */
export const vitalsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __vitals: { lcp?: number; cls: number; shifts: TLayoutShift[] } }).__vitals);

/** The shifts as lines for a failure message: when, how much, which elements moved from where to where. */
export const describeShifts = (shifts: TLayoutShift[]) =>
  shifts.map((shift) => `${shift.at} ms: ${shift.value}\n    ${shift.sources.join('\n    ')}`).join('\n');

/**
 * Loads `url` in a fresh context (empty cache) and records every request as the browser saw it
 * (CDP Network events: encodedDataLength is what came over the wire), LCP and CLS.
 */
export async function loadPage(
  browser: Browser,
  url: string,
  options: {
    link?: typeof SHIP_LINK;
    cardsSelector?: string;
    width?: number;
    height?: number;
    /** Cookies and storage to start with: a signed-in user's first visit (the cache stays empty). */
    storageState?: BrowserContextOptions['storageState'];
  } = {},
): Promise<TPageLoad> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 412, height: options.height ?? 823 },
    storageState: options.storageState,
  });
  const page: Page = await context.newPage();
  await observeVitals(page);
  if (options.cardsSelector) {
    // Records when the first course card enters the document.
    await page.addInitScript((selector: string) => {
      const watch = new MutationObserver(() => {
        if (!document.querySelector(selector)) return;
        (window as unknown as { __cards?: number }).__cards = performance.now();
        watch.disconnect();
      });
      watch.observe(document, { childList: true, subtree: true });
    }, options.cardsSelector);
  }
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (options.link) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...options.link });

  const byId = new Map<string, Partial<TRequest> & { t0?: number }>();
  let navStart: number | undefined;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (navStart === undefined) navStart = e.timestamp;
    const initiator = e.initiator.type === 'script' ? `script ${e.initiator.stack?.callFrames[0]?.url ?? e.initiator.url ?? ''}` : e.initiator.type;
    byId.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', t0: e.timestamp, initiator });
  });
  cdp.on('Network.responseReceived', (e) => {
    const entry = byId.get(e.requestId);
    if (!entry) return;
    entry.status = e.response.status;
    entry.mime = e.response.mimeType;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    entry.encoding = headers['content-encoding'];
  });
  cdp.on('Network.dataReceived', (e) => {
    const entry = byId.get(e.requestId);
    if (entry) entry.decoded = (entry.decoded ?? 0) + e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const entry = byId.get(e.requestId);
    if (!entry) return;
    entry.transferred = e.encodedDataLength;
    entry.end = e.timestamp;
  });

  let firstCards: number | undefined;
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  if (options.cardsSelector) {
    await page.waitForSelector(options.cardsSelector, { timeout: 120_000 });
    firstCards = await page.evaluate(() => (window as unknown as { __cards?: number }).__cards);
  }
  // Quiet: no request in flight for 500 ms (1.5 s on the slow link).
  const quietFor = options.link ? 1500 : 500;
  let lastActivity = Date.now();
  const inFlight = () => [...byId.values()].filter((r) => r.end === undefined).length;
  cdp.on('Network.requestWillBeSent', () => (lastActivity = Date.now()));
  cdp.on('Network.loadingFinished', () => (lastActivity = Date.now()));
  while (Date.now() - lastActivity < quietFor || inFlight() > 0) {
    if (Date.now() - started > 180_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const vitals = await vitalsOf(page);
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);

  const requests: TRequest[] = [...byId.values()]
    .filter((r) => r.end !== undefined && r.t0 !== undefined)
    .map((r) => ({
      url: r.url!,
      type: r.type!,
      start: Math.round((r.t0! - navStart!) * 1000),
      end: Math.round((r.end! - navStart!) * 1000),
      transferred: r.transferred ?? 0,
      decoded: r.decoded ?? 0,
      encoding: r.encoding,
      mime: r.mime ?? '',
      status: r.status ?? 0,
      initiator: r.initiator ?? '',
    }))
    .sort((a, b) => a.start - b.start);
  const scripts = requests.filter((r) => r.type === 'Script');
  // Interactive: the last script or API answer of the page's first load has arrived.
  const ownWork = requests.filter((r) => r.type === 'Script' || r.type === 'Fetch' || r.type === 'XHR' || r.type === 'Document');
  const interactive = Math.max(...ownWork.map((r) => r.end));
  await context.close();
  return {
    requests,
    scripts,
    jsTransferred: scripts.reduce((sum, r) => sum + r.transferred, 0),
    totalTransferred: requests.reduce((sum, r) => sum + r.transferred, 0),
    fcp,
    lcp: vitals.lcp,
    cls: vitals.cls,
    shifts: vitals.shifts,
    firstCards,
    interactive,
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The request waterfall as text: start–end, bytes, encoding, type, path. */
export function waterfall(load: TPageLoad): string {
  return load.requests
    .map((r) => `${String(r.start).padStart(6)}–${String(r.end).padEnd(6)} ${kb(r.transferred).padStart(9)} ${(r.encoding ?? '-').padEnd(4)} ${r.type.padEnd(10)} ${new URL(r.url).pathname}`)
    .join('\n');
}

/** Where a document may be cut for `shiftsWhileParsing`: after a heading, a paragraph or a section closes. */
const BLOCK_END = /<\/(?:h1|h2|h3|p|section|form)>/g;

/**
 * The layout shifts of the page at `url` while its document arrives in two parts, once for each
 * of the first `cuts` places in its <main> where a heading, a paragraph or a section ends. The
 * first part comes at once and the rest once the browser has painted it (as it paints a part on a
 * slow link, or when a busy machine makes its parser yield); anything the rest of the document
 * moves is a layout shift. Each load is a new document with none of its scripts run: the server's
 * page alone, painted part-way every time, so the outcome does not depend on the machine's speed.
 */
export async function shiftsWhileParsing(
  browser: Browser,
  url: string,
  { cuts = 3, width = 412, height = 823 } = {},
): Promise<Array<{ after: string; shifts: TLayoutShift[] }>> {
  const target = new URL(url);
  const document = await (await fetch(target, { headers: { 'accept-encoding': 'identity' } })).text();
  const mainAt = document.indexOf('<main');
  const places = [...document.matchAll(BLOCK_END)]
    .map((match) => match.index + match[0].length)
    .filter((at) => mainAt >= 0 && at > mainAt)
    .slice(0, cuts);
  if (places.length === 0) throw new Error(`${url}: no <main> with a heading, paragraph or section to cut after`);

  let cutAt = 0;
  let releaseRest = () => {};
  // Serves the document in two parts (the rest once released) and passes every other request to
  // the portal as it is.
  const proxy = createServer((request, response) => {
    if (request.url === `${target.pathname}${target.search}` && request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      const rest = document.slice(cutAt);
      response.write(document.slice(0, cutAt));
      releaseRest = () => response.end(rest);
      return;
    }
    const upstream = httpRequest(new URL(request.url ?? '/', target.origin), { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  const context = await browser.newContext({ viewport: { width, height } });
  try {
    const page = await context.newPage();
    // The page's code stays away: this is about the server's markup as it is parsed.
    await page.route('**/*.js', (route) => route.abort());
    await observeVitals(page);
    const results: Array<{ after: string; shifts: TLayoutShift[] }> = [];
    for (const place of places) {
      cutAt = place;
      const loaded = page.goto(`http://127.0.0.1:${port}${target.pathname}${target.search}`, { waitUntil: 'load' });
      // The rest comes once the first part has painted, however long that takes on this machine.
      await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, undefined, { polling: 50 });
      releaseRest();
      await loaded;
      // A shift is reported with the frame that paints it: two frames after the whole page is in.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      results.push({ after: document.slice(Math.max(mainAt, place - 80), place), shifts: (await vitalsOf(page)).shifts });
    }
    return results;
  } finally {
    await context.close();
    await new Promise((resolve) => proxy.close(resolve));
  }
}

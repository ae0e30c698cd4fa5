import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { TEST_PASSWORD } from '../src/testing/factories.ts';
import { createTestPortal, type TestPortal } from '../src/testing/test-runtime.ts';

const root = path.resolve(import.meta.dirname, '..');
const CLIENT_DIR = path.join(root, 'dist/client');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** Lighthouse's own errors in recording a page's trace, which it asks to be run again. */
const TRACE_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP', 'NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST']);
const TRACE_ATTEMPTS = 3;

type TResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** Lighthouse's figures for one screen, mobile form factor, default (simulated) throttling. */
export type TScreenScore = {
  url: string;
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Compressed bytes of JavaScript as the network log saw them. */
  jsTransferred: number;
  /** The machine's 1-minute load average as the run started: the figures' context. */
  load: number;
  /** The accessibility audits that failed, for the message. */
  failedAudits: string[];
  /** The performance opportunities and diagnostics worth reading when the score is short. */
  notes: string[];
};

export type TLighthouseHarness = {
  portal: TestPortal;
  baseUrl: string;
  /** Signs the browser in (refresh cookie and stored session, as the login screen leaves them). */
  signIn(email: string): Promise<void>;
  signOut(): Promise<void>;
  /** One Lighthouse run of the address, the browser's cache emptied first, its session kept. */
  measure(pathname: string): Promise<TScreenScore>;
  close(): Promise<void>;
};

/**
 * The portal (built client) on a free port and a headless Chromium Lighthouse drives by its
 * debugging port. Storage is not reset between runs, so a signed-in screen is measured signed in;
 * the HTTP cache is emptied before each run, so every run is a first visit's download. Each run
 * follows one unmeasured visit of the same address, so it times the page, not the browser's
 * first touch of its own code.
 */
export async function startLighthouseHarness(): Promise<TLighthouseHarness> {
  if (!existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    throw new Error('The client is not built: run `npm run build` first (npm test does).');
  }
  const portal = await createTestPortal({ clientDir: CLIENT_DIR });
  const baseUrl = await portal.app.listen({ port: 0, host: '127.0.0.1' });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic'],
  });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());

  /**
   * One Lighthouse run. A run whose trace Lighthouse could not read (NO_NAVSTART, NO_FCP: it asks
   * to be run again) is run again, twice at most; any other failure is the page's and is thrown.
   */
  const run = async (url: string, attemptsLeft = TRACE_ATTEMPTS): Promise<TResult> => {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      disableStorageReset: true,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (!lhr.runtimeError) return lhr;
    const { code, message } = lhr.runtimeError;
    if (attemptsLeft > 1 && TRACE_ERRORS.has(code)) return run(url, attemptsLeft - 1);
    throw new Error(`Lighthouse: ${code} ${message}`);
  };

  return {
    portal,
    baseUrl,
    async signIn(email) {
      await page.goto(`${baseUrl}/login`);
      await page.evaluate(
        async ({ email, password }) => {
          const res = await fetch('/trpc/auth.login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
          if (!res.ok) throw new Error(`login answered ${res.status}`);
          const { accessToken, user } = ((await res.json()) as { result: { data: { accessToken: string; user: { id: string; name: string; email: string; role: string } } } }).result.data;
          localStorage.setItem('accessToken', accessToken);
          localStorage.setItem('hasRefreshCookie', 'true');
          localStorage.setItem('user', JSON.stringify({ _id: user.id, name: user.name, email: user.email, role: user.role }));
        },
        { email, password: TEST_PASSWORD },
      );
    },
    async signOut() {
      await page.goto(`${baseUrl}/login`);
      await page.evaluate(() => localStorage.clear());
      await context.clearCookies();
    },
    async measure(pathname) {
      // One unmeasured visit first: the browser's own code for such a page is in memory again
      // (this machine's memory reclaim pages out what an idle browser has not touched lately,
      // and reading it back from disk would be timed as the page's work). The visit ends, with
      // nothing of it still downloading, before the cache is emptied: the measured run is a
      // first visit's download all the same.
      await page.goto(`${baseUrl}${pathname}`, { waitUntil: 'networkidle' });
      await page.goto('about:blank');
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      const load = loadavg()[0]!;
      const lhr = await run(`${baseUrl}${pathname}`);
      if (process.env.LIGHTHOUSE_REPORTS) {
        mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
        writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, `${pathname.replace(/\W+/g, '_') || 'home'}.json`), JSON.stringify(lhr));
      }
      const audit = (id: string) => lhr.audits[id]!;
      const requests = (audit('network-requests').details as { items: Array<{ resourceType?: string; transferSize?: number }> }).items;
      const failedAudits = Object.values(lhr.audits)
        .filter((a) => lhr.categories.accessibility!.auditRefs.some((ref) => ref.id === a.id) && a.score === 0)
        .map((a) => `${a.id}: ${a.title}`);
      const notes = Object.values(lhr.audits)
        .filter((a) => lhr.categories.performance!.auditRefs.some((ref) => ref.id === a.id) && a.score !== null && a.score < 0.9 && a.displayValue)
        .map((a) => `${a.id}: ${a.displayValue}`);
      return {
        url: pathname,
        performance: Math.round((lhr.categories.performance!.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility!.score ?? 0) * 100),
        fcp: Math.round(audit('first-contentful-paint').numericValue!),
        lcp: Math.round(audit('largest-contentful-paint').numericValue!),
        tbt: Math.round(audit('total-blocking-time').numericValue!),
        cls: Number(audit('cumulative-layout-shift').numericValue!.toFixed(3)),
        jsTransferred: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
        load: Number(load.toFixed(1)),
        failedAudits,
        notes,
      };
    },
    async close() {
      await browser.close().catch(() => {});
      chrome.kill();
      await portal.close();
    },
  };
}

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { chromium } from 'playwright-core';
import { TEST_PASSWORD } from '../src/testing/factories.ts';
import { createTestPortal, type TestPortal } from '../src/testing/test-runtime.ts';
import { freshTestCodeFor } from '../src/testing/second-factor.ts';

const root = path.resolve(import.meta.dirname, '..');
const CLIENT_DIR = path.join(root, 'dist/client');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The flags the Lighthouse CLI's own launcher adds to these (chrome-launcher's defaults stay). */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic'];
/** Lighthouse's own errors in recording a page's trace, which it asks to be run again. */
const TRACE_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP', 'NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST']);
const TRACE_ATTEMPTS = 3;

export type TLighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** One screen's figures from the median run (Lighthouse's own choice of it: nearest the median FCP and TTI). */
export type TScreenFigures = {
  screen: string;
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Everything the page transferred, compressed, as Lighthouse's network log saw it. */
  bytes: number;
  /** Of which JavaScript. */
  scriptBytes: number;
  /** Every run's performance score, in the order they ran: the spread says how noisy the machine was. */
  runs: number[];
  /** The 1-minute load average before each run. */
  loads: number[];
  /** Where the median run's main-thread time went (see `blockingWork`). */
  work: TBlockingWork;
  /** Failed accessibility audits of the median run. */
  failedAudits: string[];
};

/** What the main thread did in a run, from Lighthouse's own audits of its trace. */
export type TBlockingWork = {
  /** Long tasks (over 50 ms, after the throttling's simulation), with the script they are attributed to. */
  longTasks: Array<{ url: string; start: number; duration: number }>;
  /** Per script: its whole main-thread time, and of that evaluation and compilation (bootup-time). */
  scripts: Array<{ url: string; total: number; scripting: number; compile: number }>;
  /** Per kind of work: script evaluation, style and layout, parsing, garbage collection... */
  kinds: Array<{ kind: string; duration: number }>;
};

export type TLighthouseHarness = {
  portal: TestPortal;
  baseUrl: string;
  /**
   * Runs Lighthouse on the screen `runs` times as its command line runs it, and gives the median
   * run's figures. Each run is a Chromium of its own (a new profile: no cache, no storage, nothing
   * of the page compiled or in memory before), one new tab, mobile form factor and the default
   * simulated throttling (4× CPU, slow 4G). Signed out, Lighthouse resets the origin's storage
   * first, as the CLI does. Signed in (`as`), the session is put into the new browser first (its
   * cookie and stored session, set from the site's icon, a document that runs none of the app's
   * code) and the storage kept, as `--disable-storage-reset` keeps it.
   */
  measure(pathname: string, options?: { as?: string; runs?: number; screen?: string }): Promise<TScreenFigures>;
  close(): Promise<void>;
};

/** The portal (built client) on a free port, for Lighthouse runs against it. */
export async function startLighthouseHarness(): Promise<TLighthouseHarness> {
  if (!existsSync(path.join(CLIENT_DIR, 'index.html'))) {
    throw new Error('The client is not built: run `npm run build` first (npm run bench:lighthouse does).');
  }
  const portal = await createTestPortal({ clientDir: CLIENT_DIR });
  const baseUrl = await portal.app.listen({ port: 0, host: '127.0.0.1' });

  /** One run in a browser of its own. */
  const runOnce = async (url: string, as: string | undefined): Promise<TLighthouseResult> => {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
    try {
      if (as) await putSession(chrome.port, baseUrl, as);
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: as !== undefined,
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      return result.lhr;
    } finally {
      chrome.kill();
    }
  };

  /** A run whose trace Lighthouse could not read (it asks to be run again) is run again, twice at most. */
  const run = async (url: string, as: string | undefined): Promise<TLighthouseResult> => {
    for (let attempt = 1; ; attempt += 1) {
      const lhr = await runOnce(url, as);
      if (!lhr.runtimeError) return lhr;
      const { code, message } = lhr.runtimeError;
      if (attempt >= TRACE_ATTEMPTS || !TRACE_ERRORS.has(code)) throw new Error(`Lighthouse: ${code} ${message}`);
    }
  };

  return {
    portal,
    baseUrl,
    async measure(pathname, { as, runs = 3, screen = pathname } = {}) {
      const results: TLighthouseResult[] = [];
      const loads: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        loads.push(Number(loadavg()[0]!.toFixed(1)));
        results.push(await run(`${baseUrl}${pathname}`, as));
      }
      const median = computeMedianRun(results);
      if (process.env.LIGHTHOUSE_REPORTS) {
        mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
        writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, `${screen.replace(/\W+/g, '_') || 'home'}.json`), JSON.stringify(median));
      }
      return { ...figuresOf(median, baseUrl), screen, runs: results.map(performanceOf), loads };
    },
    async close() {
      await portal.close();
    },
  };
}

/** Signs `email` in inside the browser at `port`: the refresh cookie and the stored session the login screen leaves. */
async function putSession(port: number, baseUrl: string, email: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    // A document of the site's origin that runs none of its code: the session is set, nothing compiled.
    await page.goto(`${baseUrl}/favicon.svg`);
    const first = await page.evaluate(
      async ({ email, password }) => {
        const res = await fetch('/trpc/auth.login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
        if (!res.ok) throw new Error(`login answered ${res.status}`);
        return ((await res.json()) as { result: { data: unknown } }).result.data;
      },
      { email, password: TEST_PASSWORD },
    );
    // Staff give the code from their authenticator app (factory-made staff: computed from the e-mail).
    const challenge = first as { secondFactorRequired?: true; challengeToken?: string };
    const session = challenge.secondFactorRequired
      ? await page.evaluate(
          async (body) => {
            const res = await fetch('/trpc/auth.secondFactor', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
            if (!res.ok) throw new Error(`second factor answered ${res.status}`);
            return ((await res.json()) as { result: { data: unknown } }).result.data;
          },
          { challengeToken: challenge.challengeToken!, code: await freshTestCodeFor(email) },
        )
      : first;
    await page.evaluate((data) => {
      const { accessToken, user } = data as { accessToken: string; user: { id: string; name: string; email: string; role: string } };
      localStorage.setItem('accessToken', accessToken);
      localStorage.setItem('hasRefreshCookie', 'true');
      localStorage.setItem('user', JSON.stringify({ _id: user.id, name: user.name, email: user.email, role: user.role }));
    }, session);
    await page.goto('about:blank');
  } finally {
    // Disconnects; the browser stays for Lighthouse.
    await browser.close();
  }
}

const performanceOf = (lhr: TLighthouseResult) => Math.round((lhr.categories.performance?.score ?? 0) * 100);

type TItems<T> = { details?: { items?: T[] } };

/** The figures and the main thread's work of one run. */
function figuresOf(lhr: TLighthouseResult, baseUrl: string): Omit<TScreenFigures, 'screen' | 'runs' | 'loads'> {
  const audit = (id: string) => lhr.audits[id]!;
  const items = <T>(id: string) => ((audit(id) as TItems<T>).details?.items ?? []);
  const short = (url: string) => (url.startsWith(baseUrl) ? url.slice(baseUrl.length) || '/' : url);
  const requests = items<{ resourceType?: string; transferSize?: number }>('network-requests');
  const failedAudits = lhr.categories.accessibility!.auditRefs.map((ref) => lhr.audits[ref.id]!).filter((a) => a.score === 0).map((a) => `${a.id}: ${a.title}`);
  return {
    performance: performanceOf(lhr),
    accessibility: Math.round((lhr.categories.accessibility!.score ?? 0) * 100),
    fcp: Math.round(audit('first-contentful-paint').numericValue!),
    lcp: Math.round(audit('largest-contentful-paint').numericValue!),
    tbt: Math.round(audit('total-blocking-time').numericValue!),
    cls: Number(audit('cumulative-layout-shift').numericValue!.toFixed(3)),
    bytes: requests.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    scriptBytes: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    work: {
      longTasks: items<{ url: string; startTime: number; duration: number }>('long-tasks').map((t) => ({ url: short(t.url), start: Math.round(t.startTime), duration: Math.round(t.duration) })),
      scripts: items<{ url: string; total: number; scripting: number; scriptParseCompile: number }>('bootup-time').map((s) => ({
        url: short(s.url),
        total: Math.round(s.total),
        scripting: Math.round(s.scripting),
        compile: Math.round(s.scriptParseCompile),
      })),
      kinds: items<{ groupLabel: string; duration: number }>('mainthread-work-breakdown').map((k) => ({ kind: k.groupLabel, duration: Math.round(k.duration) })),
    },
    failedAudits,
  };
}

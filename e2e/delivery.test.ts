import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { invalidateCatalogue } from '../src/server/modules/courses/catalogue.service.ts';
import { createCourse, createUser } from '../src/testing/factories.ts';
import { startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { describeShifts, loadPage, namedByThePage, observeVitals, shiftsWhileParsing, vitalsOf, waterfall, type TRequest } from './support/page-load.ts';
import { signInAs } from './support/session.ts';
import type { Page } from 'playwright-core';
import { MESSAGES } from '../src/shared/messages.ts';
import { FRAME_ATTRIBUTE, PAGE_WAKE_GLOBAL, PRERENDERED_ATTRIBUTE, SESSION_HINT_ATTRIBUTE, type TPageWake } from '../src/shared/prerender.ts';
import { loadClientCode } from '../src/server/spa.ts';
import { adminOnlyFiles } from '../build/service-worker.ts';

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(() => harness?.close());

/** What the home page may send of JavaScript, compressed, headers included (issue 10). */
const HOME_JS_BUDGET = 100 * 1024;
/**
 * What the other public screens may send (decision 026): each about 10 % over the day's figure, so
 * a screen that starts to carry more code (a heavy library, the popover select back) fails here.
 */
const JS_BUDGETS: Record<string, number> = { '/courses': 165 * 1024, '/login': 190 * 1024, '/registration': 190 * 1024 };

/** The public screens, each with a heading of its own the server's rendering must already show. */
const PUBLIC_PAGES: Array<[string, RegExp]> = [
  ['/', /^Welcome to /],
  ['/about', /^About /],
  ['/courses', /Explore Our Courses/],
  ['/contact', /^Contact$/],
  ['/login', /^Login to /],
  ['/registration', /Create Account/],
];
/** Below this the build keeps no compressed copy: it would save less than its headers cost. */
const SMALLEST_COMPRESSED = 512;
const TEXT = /javascript|css|html|json|svg|xml|text\//;

/** Whether React has taken over the page's root (hydrateRoot marks the container). */
const isHydrated = (page: Page) =>
  page.evaluate(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer')));

/** Holds the page's scripts until the returned function is called: the page as it is before its code comes. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The stylesheets the page requests from now on (the list fills as it loads). */
function stylesheetRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') urls.push(request.url());
  });
  return urls;
}

const textAnswers = (requests: TRequest[]) =>
  requests.filter((r) => r.status === 200 && TEXT.test(r.mime) && r.decoded >= SMALLEST_COMPRESSED);

describe('what a first visit downloads', () => {
  it('the home page sends at most 100 KB of JavaScript, and every text answer compressed', async () => {
    const load = await loadPage(harness.browser, `${harness.baseUrl}/`);
    const report = waterfall(load);
    expect(load.scripts.length, report).toBeGreaterThan(0);
    expect(load.jsTransferred, report).toBeLessThanOrEqual(HOME_JS_BUDGET);
    const texts = textAnswers(load.requests);
    // The page and its code at least (the entry is one file, decision 047).
    expect(texts.length, report).toBeGreaterThanOrEqual(2);
    for (const answer of texts) expect(['br', 'gzip'], `${answer.url} (${answer.mime})`).toContain(answer.encoding);
  });

  // A whole load's layout shift depends on when the browser happens to paint (the parser yields
  // to paint sooner on a busy machine): `npm run bench` reports it. What the page decides is
  // checked here, the same on any machine: painted at any of these points, nothing moves after.
  it('no public page moves as its document arrives: painted part-way, nothing seen shifts when the rest comes', async () => {
    for (const [path] of PUBLIC_PAGES) {
      for (const { after, shifts } of await shiftsWhileParsing(harness.browser, `${harness.baseUrl}${path}`)) {
        expect(shifts, `${path}, painted after …${after}\n${describeShifts(shifts)}`).toEqual([]);
      }
    }
  });

  it('/courses comes with its code preloaded and its catalogue inside the page: no waterfall', async () => {
    const titles = [];
    for (let i = 0; i < 6; i += 1) titles.push((await createCourse(harness.portal.runtime.db)).title);
    invalidateCatalogue(harness.portal.runtime); // the courses were written straight to the database

    const load = await loadPage(harness.browser, `${harness.baseUrl}/courses`, { cardsSelector: 'article[aria-labelledby^="course-"]' });
    const report = waterfall(load);
    // Every script was named by the page itself (its code links, which its head script makes
    // preloads), none found later by running another: the code comes in one round of requests.
    for (const script of load.scripts) expect(namedByThePage(script), `${script.url} (${script.initiator})\n${report}`).toBe(true);
    // The cards need no request: the catalogue came with the page.
    expect(load.requests.filter((r) => r.url.includes('/trpc/')).map((r) => r.url), report).toEqual([]);
    expect(load.firstCards, report).toBeDefined();
    expect(load.requests.filter((r) => r.type === 'Document'), report).toHaveLength(1);
    for (const answer of textAnswers(load.requests)) expect(['br', 'gzip'], answer.url).toContain(answer.encoding);

    // The same page shows the six courses.
    const { page, context, problems } = await harness.newPage(412, 823);
    await page.goto('/courses');
    for (const title of titles) await page.getByRole('heading', { name: title }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reached from another page, /courses reads the catalogue through the API in one request', async () => {
    const { page, context, problems } = await harness.newPage(1280);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trpc/')) calls.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.getByRole('heading', { name: /Why Choose Us/i }).waitFor();
    // Woken and hydrated first: a link followed before the code runs is an ordinary page load.
    await page.keyboard.press('Tab');
    await expect.poll(() => isHydrated(page)).toBe(true);
    await page.getByRole('banner').getByRole('link', { name: 'Courses', exact: true }).click();
    await page.locator('article[aria-labelledby^="course-"]').first().waitFor();
    expect(calls).toEqual(['/trpc/courses.catalogue']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('/login comes with every script named by the page itself: no waterfall', async () => {
    const load = await loadPage(harness.browser, `${harness.baseUrl}/login`);
    const report = waterfall(load);
    for (const script of load.scripts) expect(namedByThePage(script), `${script.url} (${script.initiator})\n${report}`).toBe(true);
  });

  it("a learner's dashboard asks for the learner and the courses in one request", async () => {
    const learner = await createUser(harness.portal.runtime.db, { approvedAt: new Date() });
    await createCourse(harness.portal.runtime.db);
    invalidateCatalogue(harness.portal.runtime);
    const { page, context, problems } = await harness.newPage(1280);
    await signInAs(page, learner.email);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trpc/')) calls.push(new URL(request.url()).pathname);
    });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${learner.firstName}`, exact: false }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.split('/').at(-1)!.split(',').sort()).toEqual(['auth.me', 'enrolments.dashboard']);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the installable app stays out of a visitor\'s pages (decision 050)', () => {
  /**
   * The build's files of the offline app's own code (the worker's registration, the kept data, the
   * sync, the downloads): the `offline` area of build/chunk-groups.ts, and what it shares with others.
   */
  function offlineAppFiles(): string[] {
    const clientDir = path.resolve(import.meta.dirname, '../dist/client');
    const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; name?: string }>;
    const files = Object.values(manifest)
      .filter((chunk) => chunk.name?.split('_').includes('offline'))
      .map((chunk) => `/${chunk.file}`);
    expect(files, 'the build names the offline app\'s files').not.toEqual([]);
    return files;
  }

  it('a public page, woken and used, requests neither the service worker, Workbox, the precache nor the offline code, and registers no worker', async () => {
    const forbidden = offlineAppFiles();
    for (const address of ['/', '/courses', '/login']) {
      const { page, context } = await harness.newPage(390, 844);
      // The context sees a worker's own requests too (its script, its precache).
      const requested: string[] = [];
      context.on('request', (request) => requested.push(new URL(request.url()).pathname));
      await page.goto(address);
      // The public pages run their code on first use (decision 033).
      await page.keyboard.press('Tab');
      await expect.poll(() => isHydrated(page)).toBe(true);
      await page.waitForLoadState('networkidle');
      const offline = requested.filter((pathname) => /^\/(sw\.js|workbox-)/.test(pathname) || forbidden.includes(pathname));
      expect(offline, address).toEqual([]);
      expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((registrations) => registrations.length)), address).toBe(0);
      await context.close();
    }
  });

  it('a signed-in page registers the worker, which precaches the code but not the administration area\'s', async () => {
    const learner = await createUser(harness.portal.runtime.db, { approvedAt: new Date() });
    const { page, context } = await harness.newPage(390, 844);
    const precached: string[] = [];
    context.on('request', (request) => {
      if (request.serviceWorker()) precached.push(new URL(request.url()).pathname);
    });
    await signInAs(page, learner.email);
    await page.goto(paths.dashboard);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 20_000 }).toMatch(/\/sw\.js$/);
    const clientDir = path.resolve(import.meta.dirname, '../dist/client');
    const entry = loadClientCode(clientDir)!.entry.script;
    expect(precached).toContain(entry);
    const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const adminOnly = [...adminOnlyFiles(manifest)].map((file) => `/${file}`);
    // The admin frame's own file at least (the build names files after the areas that load them).
    expect(adminOnly).toContain(loadClientCode(clientDir)!.match(paths.admin.root)!.files.find((file) => adminOnly.includes(file)));
    for (const file of adminOnly) expect(precached, file).not.toContain(file);
    await context.close();
  });
});

describe("what a screen's page preloads (decision 035)", () => {
  /** The packages in the code the page at `route` preloads, read from the build's source maps. */
  function packagesPreloaded(route: string): Set<string> {
    const clientDir = path.resolve(import.meta.dirname, '../dist/client');
    // What the server preloads for the route, from the build's manifest.
    const files = loadClientCode(clientDir)?.match(route)?.files;
    expect(files, route).toBeDefined();
    const packages = new Set<string>();
    for (const file of files!) {
      const { sources } = JSON.parse(readFileSync(path.join(clientDir, `${file}.map`), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
        if (name) packages.add(name);
      }
    }
    return packages;
  }

  it('screens that only show data load neither the form library nor zod; the forms do', () => {
    const showOnly = [
      paths.dashboard,
      paths.profile,
      paths.certificateReport,
      paths.myCertificates,
      paths.testPage.pattern,
      paths.admin.root,
      paths.admin.users.unapproved,
      paths.admin.users.approved,
      paths.admin.users.profiles,
      paths.admin.courses.list,
      paths.admin.courses.enrolmentRequests,
      paths.admin.training.list,
      paths.admin.tests.list,
      paths.admin.tests.results,
      paths.admin.tests.evidence,
      paths.admin.tests.certificateEvidence.pattern,
      paths.admin.certificates.list,
      paths.admin.certificates.regulatorExport,
    ];
    for (const route of showOnly) {
      const packages = packagesPreloaded(route);
      expect(packages.has('zod') || packages.has('react-hook-form'), `${route}: ${[...packages].join(', ')}`).toBe(false);
    }
    for (const route of [paths.login, paths.profileEdit, paths.admin.courses.create, paths.admin.tests.create]) {
      expect(packagesPreloaded(route), route).toContain('react-hook-form');
    }
  });

  it("the admin lists and the learner's screens do not load Radix's dialog before the screen: it comes when a dialog or a drawer opens (decision 040)", () => {
    const screens = [
      paths.dashboard,
      paths.profile,
      paths.certificateReport,
      paths.myCertificates,
      paths.admin.users.unapproved,
      paths.admin.users.approved,
      paths.admin.courses.list,
      paths.admin.courses.enrolmentRequests,
      paths.admin.training.list,
      paths.admin.tests.list,
      paths.admin.tests.results,
      paths.admin.certificates.list,
      paths.admin.certificates.regulatorExport,
    ];
    for (const route of screens) {
      const packages = packagesPreloaded(route);
      expect(packages.has('@radix-ui/react-dialog') || packages.has('react-remove-scroll'), `${route}: ${[...packages].join(', ')}`).toBe(false);
    }
    // The forms that use a popover select still preload what it needs.
    expect(packagesPreloaded(paths.admin.courses.create)).toContain('@radix-ui/react-select');
  });
});

describe('the public pages paint before their code arrives (decision 026)', () => {
  it('each public page comes with its heading and form in the HTML, marked for hydration, and within its JavaScript budget', async () => {
    await createCourse(harness.portal.runtime.db, { title: 'Bridge Resource Management' });
    invalidateCatalogue(harness.portal.runtime);
    for (const [path, heading] of PUBLIC_PAGES) {
      const html = await (await fetch(`${harness.baseUrl}${path}`, { headers: { accept: 'text/html' } })).text();
      expect(html, path).toContain(`<div id="root" ${PRERENDERED_ATTRIBUTE}>`);
      expect(html, path).toMatch(/<header[^>]*>/);
      expect(html, path).toMatch(/<footer[^>]*>/);
      // The tab's title is the page's own before any code runs.
      if (path === '/login') expect(html).toContain('<title>Login · ');
      if (path === '/courses') expect(html).toContain('<title>Courses · ');
      if (path === '/login') expect(html).toMatch(/<input[^>]*name="password"/);
      if (path === '/registration') {
        expect(html).toMatch(/<select[^>]*name="title"/);
        expect(html).toMatch(/<option value="Mr" selected="">Mr<\/option>/);
      }
      if (path === '/courses') expect(html).toContain('Bridge Resource Management');

      // With no script at all the page already shows what the screen is, styled by the stylesheet
      // it carries: nothing but its pictures is fetched before it paints (decision 037).
      const context = await harness.browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
      const page = await context.newPage();
      const stylesheets = stylesheetRequests(page);
      await page.goto(`${harness.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      const banner = page.getByRole('banner');
      expect(await banner.isVisible(), path).toBe(true);
      expect(stylesheets, path).toEqual([]);
      // The header keeps to the top as the page scrolls: a rule of the stylesheet, not the browser's.
      expect(await banner.evaluate((element) => getComputedStyle(element).position), path).toBe('sticky');
      await context.close();

      if (!(path in JS_BUDGETS)) continue;
      const load = await loadPage(harness.browser, `${harness.baseUrl}${path}`);
      const report = waterfall(load);
      expect(load.jsTransferred, `${path}\n${report}`).toBeLessThanOrEqual(JS_BUDGETS[path]!);
    }
  });

  it('every public page fetches its code once it has painted and runs none until the visitor uses it, then hydrates without a mismatch or a refused script', async () => {
    for (const [path, heading] of PUBLIC_PAGES) {
      const { page, context, problems } = await harness.newPage(390, 844);
      const stylesheets = stylesheetRequests(page);
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      // The code came (preloaded), after the page's first paint, but has not run: nothing held the
      // link before the page showed, and nothing holds the phone's processor yet.
      const { scriptStarts, firstPaint } = await page.evaluate(() => ({
        scriptStarts: performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith('.js')).map((entry) => entry.startTime),
        firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      }));
      expect(scriptStarts.length, path).toBeGreaterThan(0);
      expect(firstPaint, path).toBeDefined();
      expect(Math.min(...scriptStarts), path).toBeGreaterThanOrEqual(firstPaint!);
      expect(await isHydrated(page), path).toBe(false);
      // The first key wakes it.
      await page.keyboard.press('Tab');
      await expect.poll(() => isHydrated(page), { message: path }).toBe(true);
      expect(await page.locator(`#root[${PRERENDERED_ATTRIBUTE}]`).count(), path).toBe(1);
      // Its screen's code did not fetch the stylesheet the page carries inline once more.
      await page.waitForLoadState('networkidle');
      expect(stylesheets, path).toEqual([]);
      expect(problems, path).toEqual([]);
      await context.close();
    }
  });

  it('a submit or a tap before the code runs is held and replayed: no form goes out as a plain GET with the password in its address', async () => {
    const { page, context, problems } = await harness.newPage(390, 844);
    const release = await holdScripts(page);
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url());
    });
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByLabel('Email').fill('nobody.here@example.com');
    await page.getByLabel('Password').fill('Not-the-password-1');
    await page.getByLabel('Password').press('Enter');
    // Held: the head script took the Enter (the click on the form's button it makes), its default,
    // the plain GET, prevented; the page stays where it is until its code can send the form itself.
    const held = () => page.evaluate((name) => (window as unknown as Record<string, TPageWake>)[name]!.held.length, PAGE_WAKE_GLOBAL);
    await expect.poll(held).toBe(1);
    expect(page.url()).toBe(`${harness.baseUrl}/login`);
    release();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor()).resolves.toBeUndefined();
    expect(documents.filter((url) => url.includes('password'))).toEqual([]);
    expect(page.url()).toBe(`${harness.baseUrl}/login`);
    // The one problem is the refused login itself, sent once by the app.
    expect(problems).toEqual([expect.stringContaining('401 (Unauthorized) (http://127.0.0.1')]);
    await context.close();

    // A button tapped before the code: the phone's menu opens once the code has run.
    const phone = await harness.newPage(390, 844);
    const releaseHome = await holdScripts(phone.page);
    await phone.page.goto('/', { waitUntil: 'commit' });
    await phone.page.getByRole('button', { name: 'Open menu' }).click();
    expect(await phone.page.getByRole('dialog').count()).toBe(0);
    releaseHome();
    await phone.page.getByRole('dialog').getByRole('link', { name: 'Login' }).waitFor();
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });

  it('when the code cannot arrive, a held submit is not lost in silence: the page says so, and the next try sends the form once', async () => {
    const { page, context, problems } = await harness.newPage(390, 844);
    // The ship's link drops: every script request fails until it comes back.
    let linkUp = false;
    await page.route('**/assets/*.js', (route) => (linkUp ? route.continue() : route.abort('internetdisconnected')));
    const logins: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('auth.login')) logins.push(request.url());
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody.here@example.com');
    await page.getByLabel('Password').fill('Not-the-password-1');
    await page.getByRole('button', { name: 'Login' }).click();
    const notice = page.getByRole('alert').filter({ hasText: MESSAGES.common.networkError });
    await notice.waitFor();
    expect(page.url()).toBe(`${harness.baseUrl}/login`);

    linkUp = true;
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor()).resolves.toBeUndefined();
    await expect(notice.count()).resolves.toBe(0);
    // The first tap was dropped with the failed load, not replayed as a second login.
    expect(logins).toHaveLength(1);
    // The other problems are the scripts the dropped link refused.
    expect(problems.filter((problem) => !problem.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([
      expect.stringContaining('401 (Unauthorized) (http://127.0.0.1'),
    ]);
    await context.close();
  });

  it('the page hydrates without a mismatch, keeps what the visitor typed before the code came, and the form then works', async () => {
    for (const path of ['/login', '/registration']) {
      const { page, context, problems } = await harness.newPage(390, 844);
      const release = await holdScripts(page);
      await page.goto(path, { waitUntil: 'commit' });
      // The server's form, before any script has run.
      await page.getByLabel('Email').fill('early.visitor@example.com');
      if (path === '/registration') await page.getByLabel('Prefix').selectOption('Dr');
      release();
      // Hydrated: the form validates on the client and names the empty fields.
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: path === '/login' ? 'Login' : 'Register', exact: true }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      const invalid = await page.locator('[aria-invalid="true"]').evaluateAll((fields) => fields.map((field) => field.getAttribute('name')));
      expect(invalid, path).toContain('password');
      expect(invalid, path).not.toContain('email');
      expect(await page.getByLabel('Email').inputValue(), path).toBe('early.visitor@example.com');
      if (path === '/registration') expect(await page.getByLabel('Prefix').inputValue()).toBe('Dr');
      // No hydration error, no refused inline script (the session hint is allowed by its hash).
      expect(problems, path).toEqual([]);
      await context.close();
    }
  });

  it("a signed-in user never sees the visitor's view: it stays hidden until the app renders theirs", async () => {
    const learner = await createUser(harness.portal.runtime.db, { approvedAt: new Date() });
    const { page, context, problems } = await harness.newPage(1280);
    await signInAs(page, learner.email);
    const release = await holdScripts(page);
    await page.goto('/courses', { waitUntil: 'commit' });
    await page.locator(`#root[${PRERENDERED_ATTRIBUTE}]`).waitFor({ state: 'attached' });
    expect(await page.evaluate((name) => document.documentElement.hasAttribute(name), SESSION_HINT_ATTRIBUTE)).toBe(true);
    // The visitor's navigation (its Login link) is in the page but not shown.
    await expect.poll(() => page.getByRole('banner').getByRole('link', { name: 'Login' }).isVisible()).toBe(false);
    release();
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Login' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a signed-in page comes as its frame while its code comes (decision 038)', () => {
  it("a learner's page shows the learner's bar and a loading place before any code, then the page replaces it without a shift", async () => {
    const learner = await createUser(harness.portal.runtime.db, { approvedAt: new Date() });
    const { page, context, problems } = await harness.newPage(390, 844);
    await signInAs(page, learner.email);
    await observeVitals(page);
    const stylesheets = stylesheetRequests(page);
    const release = await holdScripts(page);
    await page.goto('/dashboard', { waitUntil: 'commit' });

    // No script has run: the frame is the server's, styled by the stylesheet the page carries.
    const banner = page.getByRole('banner');
    await banner.waitFor();
    expect(await page.locator(`#root[${FRAME_ATTRIBUTE}]`).count()).toBe(1);
    expect(await banner.evaluate((element) => getComputedStyle(element).position)).toBe('sticky');
    await page.getByRole('main').getByRole('status').filter({ hasText: 'Loading' }).waitFor();
    // The learner's links are there; the buttons wait for the code.
    expect(await banner.getByRole('link', { name: 'Dashboard', includeHidden: true }).count()).toBe(1);
    expect(await banner.getByRole('button', { name: 'Open menu' }).isDisabled()).toBe(true);
    expect(stylesheets).toEqual([]);

    release();
    await page.getByRole('heading', { level: 1, name: `Welcome, ${learner.firstName}`, exact: false }).waitFor();
    // The app's page took the frame's place: one bar, one main, no frame left.
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.locator(`[${FRAME_ATTRIBUTE}]`).count()).toBe(0);
    expect(await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).isDisabled()).toBe(false);
    await page.waitForLoadState('networkidle');
    const { cls, shifts } = await vitalsOf(page);
    expect(cls, describeShifts(shifts)).toBeLessThan(0.05);
    // Nor did the page's code: its screen came without waiting for a stylesheet.
    expect(stylesheets).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['approved users', paths.admin.users.approved, 1280, 'Approved Users', 'Approved Users'],
    ['test results', paths.admin.tests.results, 390, 'User Results', 'Test Results'],
  ])("an administrator's page (%s) shows the area's bar, the menu and the page's heading before any code, then the screen under the same heading (decision 040)", async (_name, path, width, menuLabel, title) => {
    const admin = await createUser(harness.portal.runtime.db, { role: 'admin' });
    const { page, context, problems } = await harness.newPage(width, 844);
    await signInAs(page, admin.email);
    await observeVitals(page);
    const stylesheets = stylesheetRequests(page);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });

    // The server does not know the member's role: its menu holds the overview alone (decision 067).
    const adminMenu = page.getByRole('navigation', { name: 'Admin', includeHidden: true });
    await adminMenu.getByRole('link', { name: 'Overview', exact: true, includeHidden: true }).waitFor({ state: 'attached' });
    expect(await page.locator(`#root[${FRAME_ATTRIBUTE}]`).count()).toBe(1);
    expect(await adminMenu.getByRole('link', { name: menuLabel, exact: true, includeHidden: true }).count()).toBe(0);
    expect(await page.getByRole('banner').getByRole('button', { name: 'Logout' }).isDisabled()).toBe(true);
    await page.getByRole('main').getByRole('status').filter({ hasText: 'Loading' }).waitFor();
    // The page's heading and its line of explanation are the server's, with no script run.
    const heading = page.getByRole('heading', { level: 1, name: title });
    const headAt = await heading.boundingBox();
    const description = page.getByRole('main').locator('header p');
    const descriptionAt = await description.boundingBox();
    expect(await description.textContent()).toMatch(/\w{3,}/);

    release();
    await expect.poll(() => page.locator(`[${FRAME_ATTRIBUTE}]`).count()).toBe(0);
    await page.getByRole('banner').getByRole('button', { name: 'Logout', disabled: false }).waitFor();
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Admin', includeHidden: true }).count()).toBe(1);
    // The app's menu is the member's, from its first render.
    await adminMenu.getByRole('link', { name: menuLabel, exact: true, includeHidden: true }).waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    // The screen's heading is where the frame's was: it is read once, and nothing moves.
    expect(await heading.boundingBox()).toEqual(headAt);
    expect(await description.boundingBox()).toEqual(descriptionAt);
    expect(await page.title()).toBe(`${title} · Admin Dashboard`);
    const { cls, shifts } = await vitalsOf(page);
    expect(cls, describeShifts(shifts)).toBeLessThan(0.05);
    expect(stylesheets).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { matchPath } from 'react-router-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { MESSAGES } from '../src/shared/messages.ts';
import { staffInvitations } from '../src/server/db/schema.ts';
import { hashToken } from '../src/server/lib/tokens.ts';
import { invalidateCatalogue } from '../src/server/modules/courses/catalogue.service.ts';
import { createCourse, createEnrolment, createUser } from '../src/testing/factories.ts';
import { PROFILE_SPEC_FIELDS } from '../src/testing/multipart.ts';
import { seedWorld, type TLearnerCourse, type TWorld } from '../src/testing/portal-world.ts';
import { CLIENT_DIR, startBrowserHarness, type BrowserHarness } from './support/browser.ts';
import { kb, loadPage, waterfall } from './support/page-load.ts';
import { signInAs } from './support/session.ts';

/*
 * Every screen of the product, in the states where accessibility defects hide (an open dialog, a
 * form showing its errors, the phone's menu), checked with axe at a desktop and a phone width: its
 * default rules (WCAG 2.0-2.2 A and AA, best practices) and the WCAG 2.2 AA target size, which axe
 * leaves off by default. Any violation of impact serious or critical fails, named with its rule,
 * element and help text. The screens are listed below; a path in config/paths.ts that none of them
 * opens fails the last test. The same file holds the JavaScript budgets of the learner's screens
 * (decision 030).
 */

const WIDTHS = [1280, 390] as const;
const FAILING_IMPACTS = new Set(['serious', 'critical']);
/** What a first visit of a signed-in learner's screen may send of JavaScript, compressed, headers included. */
const LEARNER_JS_BUDGET = 170 * 1024;
/**
 * The screens over the budget, with their figure (decisions 030 and 032): they may not
 * grow, and each entry must go as soon as its screen is within the budget (the test says so).
 * None is now: /profile came within it when its creation form became its own file (decision 035).
 */
const OVER_BUDGET_WHEN_SET: Record<string, number> = {};

/** The world's tests are named `Test` and six characters. */
const TEST_TITLE = /^Test \w{6}$/;

/** The link of the staff invitation the walk's visitor opens (its row is written as the owner's invitation would be). */
const WALK_INVITATION = 'walk-invitation-token';

type TRole = 'visitor' | 'learner' | 'newcomer' | 'admin';

/** What the walk needs besides the world: a course whose training has a real transcoded video, and one to pass per width. */
type TWalkWorld = TWorld & {
  newcomer: { id: string; email: string };
  playerCourseId: string;
  passCourse: Record<number, TLearnerCourse>;
};

type TScreen = {
  /** What the report calls it. */
  name: string;
  as: TRole;
  /** The address the screen is opened at (and what counts it as covering a path). */
  url: (world: TWalkWorld, width: number) => string;
  /** Its level-1 heading, once the screen shows its data. */
  heading: RegExp | string;
  /** React Router's navigation state the screen is opened with (the e-mail /otp and /reset-password carry). */
  state?: Record<string, unknown>;
  /** Brings the open screen to the state checked: a dialog open, a form's errors shown... */
  then?: (page: Page, world: TWalkWorld, width: number) => Promise<void>;
  /** Opens the screen the way a user reaches it, instead of by its address. */
  open?: (page: Page, world: TWalkWorld) => Promise<void>;
  /** The one width it is checked at (the phone's menus). */
  only?: (typeof WIDTHS)[number];
};

const submitEmpty = (button: string) => async (page: Page) => {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.locator('[aria-invalid="true"]').first().waitFor();
};

const openDialog = (trigger: RegExp | string, dialog: RegExp | string) => async (page: Page) => {
  await page.getByRole('button', { name: trigger }).first().click();
  await page.getByRole('alertdialog', { name: dialog }).or(page.getByRole('dialog', { name: dialog })).waitFor();
};

const SCREENS: TScreen[] = [
  // ---- Public
  { name: 'home', as: 'visitor', url: () => paths.home, heading: /^Welcome to / },
  {
    name: 'home, menu open',
    as: 'visitor',
    only: 390,
    url: () => paths.home,
    heading: /^Welcome to /,
    then: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    },
  },
  { name: 'about', as: 'visitor', url: () => paths.about, heading: /^About / },
  { name: 'courses', as: 'visitor', url: () => paths.courses, heading: 'Explore Our Courses' },
  { name: 'contact', as: 'visitor', url: () => paths.contact, heading: 'Contact' },
  { name: 'login, errors shown', as: 'visitor', url: () => paths.login, heading: /^Login to /, then: submitEmpty('Login') },
  { name: 'registration, errors shown', as: 'visitor', url: () => paths.registration, heading: 'Create Account', then: submitEmpty('Register') },
  { name: 'sign up (as the login screen spells it)', as: 'visitor', url: () => paths.signUp, heading: 'Create Account' },
  { name: 'otp', as: 'visitor', url: () => paths.otp, state: { email: 'new.sailor@example.com', reason: 'registered' }, heading: 'Verify your email', then: submitEmpty('Verify') },
  { name: 'otp without an e-mail', as: 'visitor', url: () => paths.otp, heading: 'Verify your email' },
  { name: 'forgot password, errors shown', as: 'visitor', url: () => paths.forgotPassword, heading: 'Forgot password?', then: submitEmpty('Send OTP') },
  {
    name: 'reset password, errors shown',
    as: 'visitor',
    url: () => paths.resetPassword,
    state: { email: 'new.sailor@example.com' },
    heading: 'Reset password',
    then: submitEmpty('Reset Password'),
  },
  { name: 'admin login', as: 'visitor', url: () => paths.adminLogin, heading: /^Login to / },
  { name: 'admin set-up, link not valid', as: 'visitor', url: () => `${paths.adminSetup}?token=not-a-token`, heading: 'Set up the administrator' },
  {
    name: 'admin set-up, errors shown',
    as: 'visitor',
    url: () => `${paths.adminSetup}?token=valid-for-this-walk`,
    heading: 'Set up the administrator',
    then: submitEmpty('Create administrator'),
  },
  { name: 'join the staff, link not valid', as: 'visitor', url: () => `${paths.staffJoin}?token=not-a-token`, heading: 'Join the academy’s staff' },
  { name: 'join the staff, errors shown', as: 'visitor', url: () => `${paths.staffJoin}?token=${WALK_INVITATION}`, heading: 'Join the academy’s staff', then: submitEmpty('Join the staff') },
  { name: 'verify', as: 'visitor', url: () => paths.verify, heading: 'Verify a certificate' },
  {
    name: 'verify, a valid certificate',
    as: 'visitor',
    url: (w) => paths.verifyCertificate(w.certificate.number),
    // With a number in the address the verdict comes first, under a slim heading.
    heading: 'Certificate check',
    then: async (page) => page.getByRole('region', { name: 'Valid certificate' }).waitFor(),
  },
  {
    name: 'verify, an unknown number',
    as: 'visitor',
    url: () => paths.verifyCertificate('MTA/2020/999999'),
    heading: 'Certificate check',
    then: async (page) => page.getByText(MESSAGES.certificate.unknownNumber).waitFor(),
  },
  { name: 'page not found', as: 'visitor', url: () => '/no-such-page', heading: 'Page not found' },

  // ---- Learner
  { name: 'dashboard', as: 'learner', url: () => paths.dashboard, heading: /^Welcome/ },
  { name: 'profile', as: 'learner', url: () => paths.profile, heading: PROFILE_SPEC_FIELDS.name! },
  { name: 'sign-in security', as: 'learner', url: () => paths.security, heading: 'Sign-in security' },
  {
    name: 'profile edit',
    as: 'learner',
    url: () => paths.profileEdit,
    heading: 'Edit Profile',
    open: async (page) => {
      await navigate(page, paths.profile);
      await page.getByRole('link', { name: 'Edit Profile' }).click();
    },
  },
  { name: 'profile creation, errors shown', as: 'newcomer', url: () => paths.profile, heading: 'Create your profile', then: submitEmpty('Submit Profile') },
  { name: 'courses, signed in', as: 'learner', url: () => paths.courses, heading: 'Explore Our Courses' },
  { name: 'course content', as: 'learner', url: (w) => paths.courseContent(w.course.courseId), heading: /^Basic Safety Training / },
  { name: 'your courses', as: 'learner', url: () => paths.userCourses, heading: 'Your Courses' },
  { name: 'enrolment requests', as: 'learner', url: () => paths.enrolmentRequests, heading: 'Your Enrollment Requests' },
  {
    name: 'training player',
    as: 'learner',
    url: (w) => paths.training(w.playerCourseId),
    heading: 'Personal Survival Techniques',
    then: async (page) => {
      await page.locator('video').waitFor();
    },
  },
  { name: 'test page', as: 'learner', url: (w) => paths.testPage(w.course.courseId), heading: TEST_TITLE, then: async (page) => page.getByText(/^Answered 0 of/).waitFor() },
  {
    name: 'test page, passed',
    as: 'learner',
    url: (w, width) => paths.testPage(w.passCourse[width]!.courseId),
    heading: TEST_TITLE,
    then: async (page, w, width) => {
      await page.getByRole('radio', { name: w.passCourse[width]!.correctAnswer, exact: true }).check();
      await page.getByRole('button', { name: 'Submit Test' }).click();
      await page.getByRole('link', { name: 'View Certificate' }).waitFor();
    },
  },
  { name: 'certificate report', as: 'learner', url: () => paths.certificateReport, heading: 'Certificate Report' },
  { name: 'your data', as: 'learner', url: () => paths.yourData, heading: 'Your data', then: async (page) => page.getByLabel('Your password').waitFor() },
  { name: 'my certificates', as: 'learner', url: () => paths.myCertificates, heading: 'My certificates', then: async (page, w) => page.getByText(w.certificate.number).first().waitFor() },
  {
    name: 'certificate report, a course chosen',
    as: 'learner',
    url: (w) => paths.courseCertificate(w.certificate.courseId),
    heading: 'Certificate Report',
    then: async (page, w) => page.getByText(w.certificate.number).first().waitFor(),
  },

  // ---- Administrator
  { name: 'admin overview', as: 'admin', url: () => paths.admin.root, heading: 'Overview' },
  { name: 'admin sign-in security', as: 'admin', url: () => paths.admin.security, heading: 'Sign-in Security' },
  {
    name: 'admin overview, menu open',
    as: 'admin',
    only: 390,
    url: () => paths.admin.root,
    heading: 'Overview',
    then: async (page) => {
      await page.getByRole('button', { name: 'Open admin menu' }).click();
      await page.getByRole('dialog', { name: 'Admin menu' }).waitFor();
    },
  },
  { name: 'unapproved users, approval dialog', as: 'admin', url: () => paths.admin.users.unapproved, heading: 'Unapproved Users', then: openDialog(/^Approve/, 'Confirm Approval') },
  { name: 'approved users', as: 'admin', url: () => paths.admin.users.approved, heading: 'Approved Users' },
  { name: 'user profiles', as: 'admin', url: () => paths.admin.users.profiles, heading: 'User Profiles' },
  { name: 'a user profile', as: 'admin', url: (w) => paths.admin.users.profile(w.users.learner.id), heading: PROFILE_SPEC_FIELDS.name! },
  { name: 'identity checks', as: 'admin', url: () => paths.admin.users.identityChecks, heading: 'Identity checks' },
  { name: 'an identity check, return dialog', as: 'admin', url: (w) => paths.admin.users.identityCheck(w.users.learner.id), heading: PROFILE_SPEC_FIELDS.name!, then: openDialog(/^Return to learner/, 'Return the profile') },
  { name: 'all courses, deactivation dialog', as: 'admin', url: () => paths.admin.courses.list, heading: 'All Courses', then: openDialog(/^Deactivate/, /deactivate/i) },
  { name: 'create course, errors shown', as: 'admin', url: () => paths.admin.courses.create, heading: 'Create Course', then: submitEmpty('Create Course') },
  { name: 'edit course', as: 'admin', url: (w) => paths.admin.courses.edit(w.imageCourse.id), heading: 'Edit Course', then: async (page) => page.getByRole('button', { name: 'Update Course' }).waitFor() },
  { name: 'enrolment requests, decision dialog', as: 'admin', url: () => paths.admin.courses.enrolmentRequests, heading: 'User Enrollment Requests', then: openDialog(/^Accept/, /accept/i) },
  { name: 'upload training videos, errors shown', as: 'admin', url: () => paths.admin.training.upload, heading: 'Upload Training Videos', then: submitEmpty('Upload') },
  { name: 'all training videos', as: 'admin', url: () => paths.admin.training.list, heading: 'All Uploaded Training Videos' },
  { name: 'create test, errors shown', as: 'admin', url: () => paths.admin.tests.create, heading: 'Create New Test', then: submitEmpty('Submit Test') },
  { name: 'all tests', as: 'admin', url: () => paths.admin.tests.list, heading: 'All Created Tests' },
  { name: 'published tests', as: 'admin', url: () => paths.admin.tests.published, heading: 'Published Tests' },
  { name: 'test results', as: 'admin', url: () => paths.admin.tests.results, heading: 'Test Results' },
  { name: 'certificate evidence export, errors shown', as: 'admin', url: () => paths.admin.tests.evidence, heading: 'Certificate Evidence', then: submitEmpty('Export CSV') },
  {
    name: 'a certificate’s evidence',
    as: 'admin',
    url: (w) => paths.admin.tests.certificateEvidence(w.certificate.id),
    heading: 'Certificate Evidence',
    then: async (page) => page.getByRole('heading', { name: 'Test attempts' }).waitFor(),
  },
  { name: 'certificates, revoke dialog', as: 'admin', url: () => paths.admin.certificates.list, heading: 'Certificates', then: openDialog(/^Revoke certificate/, 'Revoke certificate') },
  { name: 'regulator export, errors shown', as: 'admin', url: () => paths.admin.certificates.regulatorExport, heading: 'Regulator Export', then: submitEmpty('Preview batch') },
  {
    name: 'audit trail, the chain checked',
    as: 'admin',
    url: () => paths.admin.audit,
    heading: 'Audit trail',
    then: async (page) => {
      await page.getByRole('button', { name: 'Check the chain' }).click();
      await page.getByText(/^The chain is whole/).waitFor();
    },
  },
  { name: 'staff, invitation dialog', as: 'admin', url: () => paths.admin.staff.list, heading: 'Staff', then: openDialog('Invite a member', 'Invite a member of staff') },
  { name: 'academy settings', as: 'admin', url: () => paths.admin.staff.settings, heading: 'Academy Settings', then: async (page) => page.getByRole('heading', { name: 'Retention after an erasure' }).waitFor() },
  { name: 'admin page not found', as: 'admin', url: () => `${paths.admin.root}/no-such-page`, heading: 'Page not found' },
];

/** The learner screens whose first visit is measured against the JavaScript budget. */
const BUDGETED: Array<[string, (w: TWalkWorld) => string]> = [
  ['dashboard', () => paths.dashboard],
  ['courses', () => paths.courses],
  ['course content', (w) => paths.courseContent(w.course.courseId)],
  ['your courses', () => paths.userCourses],
  ['enrolment requests', () => paths.enrolmentRequests],
  ['training player', (w) => paths.training(w.playerCourseId)],
  ['test page', (w) => paths.testPage(w.course.courseId)],
  ['certificate report', (w) => paths.courseCertificate(w.certificate.courseId)],
  ['my certificates', () => paths.myCertificates],
  ['profile', () => paths.profile],
];

let harness: BrowserHarness;
let world: TWalkWorld;

beforeAll(async () => {
  harness = await startBrowserHarness();
  const portal = harness.portal;
  const db = portal.runtime.db;
  const base = await seedWorld(portal);
  const learner = base.users.learner;

  // A course in training, its one part uploaded and transcoded as an administrator would.
  const playerCourse = await base.make.playerCourse('Personal Survival Techniques');

  // A request still waiting (the learner's own list) and one for the administrators to decide.
  await createEnrolment(db, { userId: learner.id, courseId: (await createCourse(db, { title: 'Ship Security Awareness' })).id });
  await base.make.pendingEnrolment();

  const newcomer = await createUser(db, { approvedAt: new Date() });
  const sentAt = new Date();
  await db.insert(staffInvitations).values({
    email: `invited-${Date.now().toString(36)}@example.com`,
    staffRole: 'registrar',
    tokenHash: hashToken(WALK_INVITATION),
    invitedBy: base.users.owner.id,
    sentAt,
    expiresAt: new Date(sentAt.getTime() + 7 * 24 * 3600 * 1000),
  });
  const passCourse: Record<number, TLearnerCourse> = {};
  for (const width of WIDTHS) passCourse[width] = await base.make.learnerCourse();
  await portal.drainJobs();
  invalidateCatalogue(portal.runtime);
  world = { ...base, newcomer, playerCourseId: playerCourse.id, passCourse };
}, 180_000);
afterAll(() => harness?.close());

/** The page's requests in flight (the page's code, its API calls), so a check waits for the answers. */
function trackRequests(page: Page) {
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const counted = (request: Request) => ['document', 'script', 'stylesheet', 'fetch', 'xhr'].includes(request.resourceType());
  page.on('request', (request) => {
    if (!counted(request)) return;
    inFlight.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    if (inFlight.delete(request)) lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async function quiet(forMs = 150, timeoutMs = 15_000) {
    const started = Date.now();
    while (inFlight.size > 0 || Date.now() - lastChange < forMs) {
      if (Date.now() - started > timeoutMs) throw new Error(`requests still in flight: ${[...inFlight].map((r) => r.url()).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
}

/** The address between two screens: the not-found page, so the next screen's heading cannot be the last one's. */
const between = (role: TRole) => (role === 'admin' ? `${paths.admin.root}/walk-between-screens` : '/walk-between-screens');

/**
 * Opens `url` in the app already running, as a link would (React Router follows the history's
 * popstate), with `usr` as its navigation state. A reload per screen would spend most of the walk
 * on starting the app again.
 */
async function navigate(page: Page, url: string, usr: Record<string, unknown> | null = null) {
  await page.evaluate(
    ({ to, usr }) => {
      const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
      window.history.pushState({ usr, key: Math.random().toString(36).slice(2, 10), idx }, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    { to: url, usr },
  );
}

async function animationsDone(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * axe-core comes into each document once, before the app (an init script of the tab), and stays
 * there across the walk's navigations: AxeBuilder would otherwise evaluate its 1.3 MB source twice
 * per check. It gets this line as its source instead, which fails if axe is not there.
 */
const AXE_ALREADY_IN_PAGE = `if (typeof window.axe?.run !== 'function') throw new Error('axe-core is not in the page')`;

async function audit(page: Page): Promise<string[]> {
  // Legacy mode: axe.run in the page itself. The default (runPartial in each frame, then finishRun
  // in a new blank page) costs a page per check, for frames the portal does not have.
  const results = await new AxeBuilder({ page, axeSource: AXE_ALREADY_IN_PAGE })
    .setLegacyMode()
    .options({ resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `[${violation.impact}] ${violation.id}: ${violation.help}\n      at ${node.target.join(' ')}\n      ${node.failureSummary?.split('\n').slice(1).join(' / ').trim()}\n      ${violation.helpUrl}`,
      ),
    );
}

/** Signs the tab in as the role's user (a visitor stays signed out). */
async function startAs(role: TRole, page: Page, context: BrowserContext) {
  if (role === 'visitor') {
    // The one-time set-up link: an administrator exists here, so its check answers as for a valid link.
    await context.route('**/trpc/auth.adminSetupStatus?**', (route) =>
      route.request().url().includes('valid-for-this-walk')
        ? route.fulfill({ contentType: 'application/json', body: JSON.stringify([{ result: { data: { valid: true } } }]) })
        : route.continue(),
    );
    return;
  }
  const user = role === 'learner' ? world.users.learner : role === 'admin' ? world.users.owner : world.newcomer;
  await signInAs(page, user.email);
}

/** Closes what a screen opened (a dialog, the phone's menu): it would hide the next screen from the walk. */
async function closeDialogs(page: Page) {
  const open = page.locator('[role="dialog"], [role="alertdialog"]');
  if ((await open.count()) === 0) return;
  await page.keyboard.press('Escape');
  await open.first().waitFor({ state: 'detached' });
}

/** One role's screens at one width, in one tab: the failures, each with the screen, rule, element and help. */
async function walk(role: TRole, width: number) {
  const { page, context } = await harness.newPage(width, width < 600 ? 844 : 900);
  page.setDefaultTimeout(10_000);
  const quiet = trackRequests(page);
  await context.addInitScript({ content: axe.source });
  await startAs(role, page, context);
  await page.goto(between(role));
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  const failures: string[] = [];
  for (const screen of SCREENS.filter((s) => s.as === role && (s.only ?? width) === width)) {
    const started = Date.now();
    const url = screen.url(world, width);
    try {
      await navigate(page, between(role));
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      if (screen.open) await screen.open(page, world);
      else await navigate(page, url, screen.state);
      await page.getByRole('heading', { level: 1, name: screen.heading }).first().waitFor({ timeout: 15_000 });
      await quiet();
      await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0, undefined, { timeout: 15_000 });
      if (screen.then) await screen.then(page, world, width);
      await quiet();
      await animationsDone(page);
      const violations = await audit(page);
      if (violations.length > 0) failures.push(`${screen.name} (${url}, ${width} px):\n    ${violations.join('\n    ')}`);
    } catch (error) {
      failures.push(`${screen.name} (${url}, ${width} px) could not be checked: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      await closeDialogs(page).catch(() => undefined);
    }
    console.log(`  ${width} px  ${screen.name}: ${Date.now() - started} ms`);
  }
  await context.close();
  return failures;
}

describe.each(WIDTHS)('axe finds nothing serious at %i px', (width) => {
  for (const role of ['visitor', 'learner', 'newcomer', 'admin'] as const) {
    it(`on the ${role}'s screens`, async () => {
      const failures = await walk(role, width);
      expect(failures, `\n${failures.join('\n\n')}\n`).toEqual([]);
    }, 120_000);
  }
});

describe("the learner's screens on a first visit", () => {
  let storageState: BrowserContextOptions['storageState'];
  beforeAll(async () => {
    const { page, context } = await harness.newPage(412, 823);
    await signInAs(page, world.users.learner.email);
    storageState = await context.storageState();
    await context.close();
  });

  for (const [name, url] of BUDGETED) {
    const allowance = OVER_BUDGET_WHEN_SET[name];
    const title = allowance
      ? `${name}: over the budget, and no heavier than its ${kb(allowance)} when the budget was set`
      : `${name} sends at most ${kb(LEARNER_JS_BUDGET)} of JavaScript`;
    it(title, async () => {
      const load = await loadPage(harness.browser, `${harness.baseUrl}${url(world)}`, { storageState });
      console.log(`  ${name}: ${kb(load.jsTransferred)} of JavaScript in ${load.scripts.length} files`);
      const heaviest = [...load.scripts]
        .sort((a, b) => b.transferred - a.transferred)
        .slice(0, 6)
        .map((script) => `  ${kb(script.transferred).padStart(9)}  ${new URL(script.url).pathname}  ${chunkSources(script.url)}`);
      const report = `${name}: the heaviest files\n${heaviest.join('\n')}\n\n${waterfall(load)}`;
      if (load.jsTransferred > LEARNER_JS_BUDGET) console.log(`  over the budget; the heaviest files:\n${heaviest.join('\n')}`);
      if (allowance === undefined) {
        expect(load.jsTransferred, report).toBeLessThanOrEqual(LEARNER_JS_BUDGET);
      } else {
        expect(load.jsTransferred, `${name} grew beyond its ${kb(allowance)}: ${report}`).toBeLessThanOrEqual(allowance);
        expect(load.jsTransferred, `${name} is within the budget now: take it off OVER_BUDGET_WHEN_SET`).toBeGreaterThan(LEARNER_JS_BUDGET);
      }
    });
  }
});

/** What a built chunk is mostly made of, from its source map: the largest sources, shortened. */
function chunkSources(url: string): string {
  const map = path.join(CLIENT_DIR, `${new URL(url).pathname}.map`);
  if (!existsSync(map)) return '';
  const { sources, sourcesContent = [] } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
  return sources
    .map((source, i) => ({ name: source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+src\/client\//, ''), size: sourcesContent[i]?.length ?? 0 }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 4)
    .map(({ name }) => name)
    .join(', ');
}

describe('the walk', () => {
  it('opens every path of config/paths.ts', () => {
    const opened = WIDTHS.flatMap((width) => SCREENS.map((screen) => new URL(screen.url(world, width), 'http://portal')));
    const missing = pathsOf(paths).filter(
      ({ pattern, query }) =>
        !opened.some((url) => matchPath(pattern, url.pathname) && query.every((key) => url.searchParams.has(key))),
    );
    expect(missing.map(({ name }) => name), 'paths no screen of the walk opens: give each a row in SCREENS').toEqual([]);
  });
});

/** Every address named in config/paths.ts: its route pattern and the query keys it carries. */
function pathsOf(node: object, prefix = ''): Array<{ name: string; pattern: string; query: string[] }> {
  return Object.entries(node).flatMap(([key, value]: [string, unknown]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') return [{ name, pattern: value, query: [] }];
    if (typeof value === 'function') {
      const sample = 'pattern' in value ? String(value.pattern) : String((value as (v: string) => string)('sample'));
      const url = new URL(sample, 'http://portal');
      return [{ name, pattern: url.pathname, query: [...url.searchParams.keys()] }];
    }
    return pathsOf(value as object, name);
  });
}

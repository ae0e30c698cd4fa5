import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/client/app/paths.ts';
import { seedWorld, type TWorld } from '../src/testing/portal-world.ts';
import { startLighthouseHarness, type TLighthouseHarness, type TScreenScore } from './support.ts';

/*
 * The web budgets (decisions 026, 032 to 035, 039): Lighthouse, mobile, default throttling, on
 * the screens people open most, signed out and signed in.
 * - Accessibility at least 95 on every screen, 100 on the public pages, and no layout shift to
 *   speak of on any: these hold on this machine however busy it is.
 * - Performance at least 95, the aim, on the public pages and the learner's screens. The
 *   administrators' lists are held to a floor of 90, under which a screen has clearly regressed
 *   (a waterfall of requests, a blocking script, a long task, a heavy library on a screen that
 *   does not need it): they carry the most code of any screen (157–164 KB), and Lighthouse's
 *   simulation puts them at 95 to 97 on this machine, too close to the aim for a run to be judged
 *   by it. The table printed at the end says which screens reach the aim.
 * One run can come out low for reasons of its own: a screen under its bar is run twice more and
 * judged by the median of the three.
 * The axe walk (e2e/accessibility.test.ts) checks every screen's accessibility in detail.
 */

const PERFORMANCE_AIM = 95;
const ADMIN_LIST_FLOOR = 90;
const LEAST_ACCESSIBILITY = 95;
const MOST_CLS = 0.05;

let harness: TLighthouseHarness;
let world: TWorld;
/** The course whose training the player shows: a real transcoded part, as a learner meets it. */
let playerCourse: { id: string };
const table: Array<Omit<TScreenScore, 'failedAudits' | 'notes'> & { runs: number; aimMet: boolean }> = [];

beforeAll(async () => {
  harness = await startLighthouseHarness();
  world = await seedWorld(harness.portal);
  playerCourse = await world.make.playerCourse('Personal Survival Techniques');
});
afterAll(async () => {
  if (table.length) console.table(table);
  await harness?.close();
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The screen's figures: one run, or the median of three when the first is under `bar`. */
async function score(pathname: string, bar: number): Promise<TScreenScore> {
  const first = await harness.measure(pathname);
  const runs = [first];
  if (first.performance < bar || first.accessibility < LEAST_ACCESSIBILITY) {
    runs.push(await harness.measure(pathname), await harness.measure(pathname));
  }
  const byPerformance = [...runs].sort((a, b) => a.performance - b.performance);
  const judged = { ...byPerformance[Math.floor(runs.length / 2)]!, accessibility: median(runs.map((run) => run.accessibility)) };
  const { failedAudits: _failed, notes: _notes, ...row } = judged;
  table.push({ ...row, runs: runs.length, aimMet: row.performance >= PERFORMANCE_AIM });
  return judged;
}

/** Scores the screen at `pathname` and holds it to `bar` (performance) and the other budgets. */
async function expectWithinBudget(pathname: string, { bar = PERFORMANCE_AIM, publicPage = false } = {}) {
  const result = await score(pathname, bar);
  const explained = `${result.url}: performance ${result.performance}, accessibility ${result.accessibility} (load ${result.load})\n  ${[...result.notes, ...result.failedAudits].join('\n  ')}`;
  expect(result.performance, explained).toBeGreaterThanOrEqual(bar);
  expect(result.accessibility, explained).toBeGreaterThanOrEqual(publicPage ? 100 : LEAST_ACCESSIBILITY);
  expect(result.cls, explained).toBeLessThan(MOST_CLS);
}

describe('Lighthouse on the screens people open most', () => {
  it.each([paths.home, paths.courses, paths.login, paths.registration, paths.contact])('signed out: %s', async (pathname) => {
    await expectWithinBudget(pathname, { publicPage: true });
  });

  describe('signed in as a learner', () => {
    beforeAll(() => harness.signIn(world.users.learner.email));

    it.each([
      ['dashboard', () => paths.dashboard],
      ['training', () => paths.training(playerCourse.id)],
      ['test page', () => paths.testPage(world.course.courseId)],
      ['certificate report', () => paths.certificateReport],
      ['profile', () => paths.profile],
    ])('%s', async (_name, pathname) => {
      await expectWithinBudget(pathname());
    });
  });

  describe('signed in as an administrator', () => {
    beforeAll(async () => {
      await harness.signOut();
      await harness.signIn(world.users.admin.email);
    });

    it.each([
      ['approved users', () => paths.admin.users.approved],
      ['test results', () => paths.admin.tests.results],
    ])('%s', async (_name, pathname) => {
      await expectWithinBudget(pathname(), { bar: ADMIN_LIST_FLOOR });
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/client/app/paths.ts';
import { seedWorld, type TWorld } from '../src/testing/portal-world.ts';
import { startLighthouseHarness, type TLighthouseHarness, type TScreenScore } from './support.ts';

/*
 * The web budgets (decisions 026, 032 to 035): Lighthouse, mobile, default throttling, on the
 * screens people open most, signed out and signed in.
 * - Accessibility at least 95 on every screen, 100 on the public pages, and no layout shift to
 *   speak of on any: these hold on this machine however busy it is.
 * - Performance: the aim is 95 and the table printed at the end says which screens reach it. The
 *   same screen scores a few points apart from one run to the next here (Lighthouse times the
 *   browser's work on a shared machine), so the test holds a floor of 85 on every screen, under
 *   which a screen has clearly regressed (a waterfall of requests, a blocking script, a long task,
 *   a heavy library on a screen that does not need it). One run can come out low for reasons of
 *   its own: a screen under the floor is run twice more and judged by the median of the three.
 * The axe walk (e2e/accessibility.test.ts) checks every screen's accessibility in detail.
 */

const PERFORMANCE_AIM = 95;
const PERFORMANCE_FLOOR = 85;
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

/** The screen's figures: one run, or the median of three when the first is under the bar. */
async function score(pathname: string): Promise<TScreenScore> {
  const first = await harness.measure(pathname);
  const runs = [first];
  if (first.performance < PERFORMANCE_FLOOR || first.accessibility < LEAST_ACCESSIBILITY) {
    runs.push(await harness.measure(pathname), await harness.measure(pathname));
  }
  const byPerformance = [...runs].sort((a, b) => a.performance - b.performance);
  const judged = { ...byPerformance[Math.floor(runs.length / 2)]!, accessibility: median(runs.map((run) => run.accessibility)) };
  const { failedAudits: _failed, notes: _notes, ...row } = judged;
  table.push({ ...row, runs: runs.length, aimMet: row.performance >= PERFORMANCE_AIM });
  return judged;
}

function expectWithinBudget(result: TScreenScore, { publicPage = false } = {}) {
  const explained = `${result.url}: performance ${result.performance}, accessibility ${result.accessibility} (load ${result.load})\n  ${[...result.notes, ...result.failedAudits].join('\n  ')}`;
  expect(result.performance, explained).toBeGreaterThanOrEqual(PERFORMANCE_FLOOR);
  expect(result.accessibility, explained).toBeGreaterThanOrEqual(publicPage ? 100 : LEAST_ACCESSIBILITY);
  expect(result.cls, explained).toBeLessThan(MOST_CLS);
}

describe('Lighthouse on the screens people open most', () => {
  it.each([paths.home, paths.courses, paths.login, paths.registration, paths.contact])('signed out: %s', async (pathname) => {
    expectWithinBudget(await score(pathname), { publicPage: pathname !== paths.contact });
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
      expectWithinBudget(await score(pathname()));
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
      expectWithinBudget(await score(pathname()));
    });
  });
});

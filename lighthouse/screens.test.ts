import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { seedWorld, type TWorld } from '../src/testing/portal-world.ts';
import { startLighthouseHarness, type TLighthouseHarness, type TScreenScore } from './support.ts';

/*
 * The web budgets (decisions 026, 032 to 035, 039 and 040): Lighthouse, mobile, default
 * throttling, on the screens people open most, signed out and signed in.
 * - Accessibility at least 95 on every screen, 100 on the public pages, and no layout shift to
 *   speak of on any: these hold on this machine however busy it is.
 * - Performance at least 95 on every screen, the administrators' lists included. Their frame
 *   carries the page's heading, which is the largest paint, and their code brings no dialog before
 *   the screen (decision 040): they measure 96 to 97 on this machine, as the learner's screens do.
 * One run can come out low for reasons of its own (one long task more on this 2-core machine): a
 * screen under its bar is run twice more and judged by the median of the three.
 * The axe walk (e2e/accessibility.test.ts) checks every screen's accessibility in detail.
 */

const LEAST_PERFORMANCE = 95;
const LEAST_ACCESSIBILITY = 95;
const MOST_CLS = 0.05;

let harness: TLighthouseHarness;
let world: TWorld;
/** The course whose training the player shows: a real transcoded part, as a learner meets it. */
let playerCourse: { id: string };
const table: Array<Omit<TScreenScore, 'failedAudits' | 'notes'> & { runs: number }> = [];

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

/** The screen's figures: one run, or the median of three when the first is under a budget. */
async function score(pathname: string): Promise<TScreenScore> {
  const first = await harness.measure(pathname);
  const runs = [first];
  if (first.performance < LEAST_PERFORMANCE || first.accessibility < LEAST_ACCESSIBILITY) {
    runs.push(await harness.measure(pathname), await harness.measure(pathname));
  }
  const byPerformance = [...runs].sort((a, b) => a.performance - b.performance);
  const judged = { ...byPerformance[Math.floor(runs.length / 2)]!, accessibility: median(runs.map((run) => run.accessibility)) };
  const { failedAudits: _failed, notes: _notes, ...row } = judged;
  table.push({ ...row, runs: runs.length });
  return judged;
}

/** Scores the screen at `pathname` and holds it to the budgets. */
async function expectWithinBudget(pathname: string, { publicPage = false } = {}) {
  const result = await score(pathname);
  const explained = `${result.url}: performance ${result.performance}, accessibility ${result.accessibility} (load ${result.load})\n  ${[...result.notes, ...result.failedAudits].join('\n  ')}`;
  expect(result.performance, explained).toBeGreaterThanOrEqual(LEAST_PERFORMANCE);
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
      await expectWithinBudget(pathname());
    });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { trainingVideos, trainingVideoSets, watchProgress } from '../src/server/db/schema.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../src/testing/factories.ts';
import { authed, eventually, faultsCanRun, json, killHard, login, sleep, startPortal, type TProcess } from './support.ts';

const services = faultsCanRun();
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-faults-heartbeats-'));
let db: DatabaseHandle;
let portal: TProcess | undefined;

beforeAll(async () => {
  if (services) db = await openDatabase({ url: services.databaseUrl, maxConnections: 2 });
});
afterAll(async () => {
  if (portal) killHard(portal);
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const LEARNERS = 20;

type TAcked = { from: number; to: number; watchedSeconds: number };

describe.runIf(services)('kill -9 on the portal while learners are reporting', () => {
  it('keeps the effect of every report it answered', async () => {
    const started = await startPortal({ DATABASE_URL: services!.databaseUrl, DATA_DIR: dataDir });
    portal = started;
    const { base } = started;
    const course = await createCourse(db.db);
    const [set] = await db.db.insert(trainingVideoSets).values({ courseId: course.id, title: 'Watch keeping' }).returning();
    const [video] = await db.db
      .insert(trainingVideos)
      .values({ setId: set!.id, serial: 1, originalName: 'Part 1', sourceFile: 'part-1.mp4', status: 'ready', durationSeconds: 3600, renditions: [] })
      .returning();
    const learners = await Promise.all(
      Array.from({ length: LEARNERS }, async () => {
        const learner = await createUser(db.db, { approvedAt: new Date() });
        await createEnrolment(db.db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
        return { id: learner.id, token: await login(base, learner.email, TEST_PASSWORD), acked: [] as TAcked[], failed: 0 };
      }),
    );

    // Each learner reports what played since its last report (honest spans): half of them back to
    // back, half every quarter of a second, many reports in flight at once until the process dies.
    let killed = false;
    let inFlight = 0;
    const report = async (learner: (typeof learners)[number], from: number, to: number) => {
      inFlight += 1;
      try {
        const response = await fetch(`${base}/api/trainingVideo/watched`, {
          method: 'POST',
          headers: authed(learner.token),
          body: JSON.stringify({ videoId: video!.id, from, to, position: to }),
        });
        const body = await json(response);
        if (response.status !== 200) throw new Error(`report answered ${response.status}: ${JSON.stringify(body)}`);
        return body.watchedSeconds as number;
      } finally {
        inFlight -= 1;
      }
    };
    const reporting = learners.map(async (learner, index) => {
      await report(learner, 0, 0);
      let position = 0;
      let last = performance.now();
      while (!killed) {
        // The portal credits a span only as the time passes on its own clock: the pause is real.
        if (index % 2 === 1) await sleep(250);
        const now = performance.now();
        const to = Math.round((position + (now - last) / 1000) * 1000) / 1000;
        last = now;
        try {
          const watchedSeconds = await report(learner, position, to);
          learner.acked.push({ from: position, to, watchedSeconds });
        } catch {
          // No answer (the process died with it in flight): it may or may not have been written.
          learner.failed += 1;
          return;
        }
        position = to;
      }
    });
    const answered = () => learners.reduce((sum, learner) => sum + learner.acked.length, 0);
    // Every learner answered at least once, those who pause included: the back-to-back half can
    // reach the total before a pausing learner's first report is answered.
    await eventually('answered reports', async () => answered() >= LEARNERS * 5 && learners.every((learner) => learner.acked.length > 0), 60_000);
    // Mid-stream: the signal comes while several reports are in flight.
    const inFlightAtKill = await eventually('reports in flight', async () => (inFlight >= 5 ? inFlight : undefined), 10_000);
    killHard(started);
    killed = true;
    await started.exited;
    await Promise.all(reporting);
    portal = undefined;

    expect(answered()).toBeGreaterThanOrEqual(LEARNERS * 5);
    expect(inFlightAtKill).toBeGreaterThanOrEqual(5);

    const records = new Map(
      (await db.db.select().from(watchProgress).where(inArray(watchProgress.userId, learners.map((learner) => learner.id)))).map((record) => [record.userId, record]),
    );
    for (const [index, learner] of learners.entries()) {
      const record = records.get(learner.id)!;
      const intervals = record.watchedIntervals;
      const covered = (from: number, to: number) => intervals.some(([start, end]) => start <= from + 1e-9 && end >= to - 1e-9);
      // Every answered report's credit is there: at least the last answer's total, and each span the
      // answer said was credited in full (its total grew by the span) lies within what is recorded.
      const lastAcked = learner.acked.at(-1);
      if (lastAcked) expect(record.watchedSeconds).toBeGreaterThanOrEqual(lastAcked.watchedSeconds - 0.05 - 1e-9);
      // (Answers round to a tenth: spans of a fifth of a second and more tell credited from not.)
      let before = 0;
      for (const report of learner.acked) {
        const span = report.to - report.from;
        if (span >= 0.2 && report.watchedSeconds - before >= span - 0.1) expect(covered(report.from, report.to), `${report.from}-${report.to} of ${learner.id}`).toBe(true);
        before = report.watchedSeconds;
      }
      expect(learner.acked.filter((report) => report.to - report.from >= 0.2).length > 0 || index % 2 === 0).toBe(true);
    }
  }, 120_000);
});

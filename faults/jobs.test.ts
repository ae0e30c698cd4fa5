import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { certificates, jobOutbox, trainingVideoSets, trainingVideos } from '../src/server/db/schema.ts';
import { SCHEDULED_TASKS } from '../src/server/jobs.ts';
import { createCourse, createUser } from '../src/testing/factories.ts';
import { threadStats } from '../src/testing/proc-stat.ts';
import { WORKER_NICENESS } from '../src/workers/job-worker.ts';
import { makeClip } from '../src/testing/media.ts';
import { form } from '../src/testing/multipart.ts';
import { untilJobsSettled } from '../src/testing/job-queue.ts';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import { adminLogin, authed, eventually, faultsCanRun, json, learnerBeforeTheTest, killHard, startPlatform, stopGently, type TProcess } from './support.ts';

const services = faultsCanRun();
let db: DatabaseHandle;
const running: TProcess[] = [];
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (services) db = await openDatabase({ url: services.databaseUrl, maxConnections: 2 });
});
afterAll(async () => {
  await Promise.all(running.map((process_) => stopGently(process_).catch(() => undefined)));
  for (const cleanup of cleanups.reverse()) await cleanup();
  await db?.close();
});

const platform = (extra: Record<string, string> = {}) => startPlatform(services!.databaseUrl, { running, cleanups }, extra);

describe.runIf(services)('a worker killed with kill -9 during a transcode', () => {
  it('leaves the job to the next worker, which prepares the video once', async () => {
    const { dataDir, portal, worker } = await platform();
    const first = worker();
    const course = await createCourse(db.db);
    const token = await adminLogin(portal.base);
    const clip = await readFile(await makeClip(dataDir, 'long-briefing.mp4', { width: 960, height: 540, seconds: 30, audio: true }));
    const upload = form([
      { name: 'courseId', value: course.id },
      { name: 'title', value: 'Lifeboat drill' },
      { name: 'trainingVideo', file: clip, filename: 'long-briefing.mp4', type: 'video/mp4' },
    ]);
    const uploaded = await fetch(`${portal.base}/api/trainingVideo`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...upload.headers }, body: upload.payload });
    expect(uploaded.status).toBe(201);
    const videoOf = async () =>
      (
        await db.db
          .select({ id: trainingVideos.id, status: trainingVideos.status, progress: trainingVideos.progressPercent, renditions: trainingVideos.renditions, poster: trainingVideos.posterFile, source: trainingVideos.sourceFile })
          .from(trainingVideos)
          .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
          .where(eq(trainingVideoSets.courseId, course.id))
      )[0];

    // Mid-transcode: ffmpeg has reported progress.
    await eventually('the transcode under way', async () => {
      const video = await videoOf();
      return video?.status === 'processing' && video.progress > 0;
    }, 60_000);
    // Background work: the worker runs every thread at its lower priority (decision 036).
    expect(first.log()).toContain(`"niceness":${WORKER_NICENESS}`);
    const niceValues = threadStats(first.child.pid!).map((thread) => thread.nice);
    expect(niceValues.length).toBeGreaterThan(1);
    expect(niceValues.filter((nice) => nice !== WORKER_NICENESS), `nice values: ${niceValues.join(' ')}`).toEqual([]);
    killHard(first);
    await first.exited;
    expect((await videoOf())!.status).toBe('processing');

    const second = worker();
    const ready = await eventually('the video prepared by the next worker', async () => {
      const video = await videoOf();
      return video?.status === 'ready' ? video : undefined;
    }, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}; the worker said:\n${second.log().slice(-4000)}`);
    });
    expect(ready.renditions.length).toBeGreaterThan(0);
    // One output: the source, the renditions and the poster the row names, and no other finished file
    // (the killed run's half-written `.part` files are temporary names the sweep removes).
    const finished = (await readdir(path.join(dataDir, 'files', 'trainingVideo'))).filter((name) => !name.startsWith('.'));
    expect(finished.sort()).toEqual([ready.source, ...ready.renditions.map((rendition) => rendition.file), ready.poster].sort());
    const outboxRows = await db.db.select({ status: jobOutbox.status }).from(jobOutbox).where(and(eq(jobOutbox.name, 'transcode-video'), sql`${jobOutbox.payload}->>'videoId' = ${ready.id}`));
    expect(outboxRows).toEqual([{ status: 'done' }]);
  }, 240_000);
});

describe.runIf(services)('Redis emptied (FLUSHALL) with jobs pending', () => {
  it('re-queues them from the outbox: every mail and certificate delivered exactly once', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(smtp.close);
    const { redis, portal, worker } = await platform({ SMTP_URL: smtp.url });
    const learners = await Promise.all([0, 1, 2].map(() => createUser(db.db)));
    for (const learner of learners) {
      const asked = await fetch(`${portal.base}/api/user/forgotPasssword`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: learner.email }) });
      expect(asked.status, JSON.stringify(await json(asked))).toBe(200);
    }
    // A pass while no worker runs: its certificate's PDF and mail wait in the queue too.
    const passing = await learnerBeforeTheTest(portal.base, db.db);
    const passed = await fetch(`${portal.base}/api/submitTest`, { method: 'POST', headers: authed(passing.token), body: JSON.stringify(passing.answer) });
    expect(passed.status).toBe(201);
    const emails = learners.map((learner) => learner.email);
    const pending = async () =>
      db.db.select({ status: jobOutbox.status }).from(jobOutbox).where(and(eq(jobOutbox.name, 'send-mail'), inArray(jobOutbox.status, ['pending'])));
    expect(await pending()).toHaveLength(3);
    expect(await db.db.select().from(jobOutbox).where(and(eq(jobOutbox.name, 'render-certificate'), eq(jobOutbox.status, 'pending')))).toHaveLength(1);

    // No worker has run: the jobs sit in Redis, which now loses everything.
    expect(redis.flushAll()).toBe('OK');
    worker();
    // The scheduled tasks' job schedulers, lost with the rest, are upserted again by the worker.
    const scheduled = new Redis(redis.url);
    cleanups.push(() => scheduled.quit());
    await eventually('the job schedulers back', async () =>
      (await scheduled.zrange('bull:scheduled:repeat', '0', '-1')).sort().join() === SCHEDULED_TASKS.map((task) => task.name).sort().join(),
    );
    for (const email of emails) await smtp.waitFor(email, 30_000);
    // Every job queued has run to its end: a second send would have reached the server.
    await untilJobsSettled(redis.url);
    for (const email of emails) expect(smtp.received.filter((mail) => mail.to.includes(email))).toHaveLength(1);
    expect(await pending()).toHaveLength(0);

    const issued = await eventually('the certificate rendered', async () => {
      const rows = await db.db.select().from(certificates).where(eq(certificates.userId, passing.learner.id));
      return rows[0]?.status === 'ready' ? rows : undefined;
    });
    expect(issued).toHaveLength(1);
    await smtp.waitFor(passing.learner.email, 30_000);
    await untilJobsSettled(redis.url);
    expect(smtp.received.filter((mail) => mail.to.includes(passing.learner.email))).toHaveLength(1);
    const pdf = await fetch(`${portal.base}/certificates/${issued[0]!.pdfFile}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  }, 120_000);
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createCourse, createUser } from '../../../testing/factories.ts';
import { makeClip } from '../../../testing/media.ts';
import { form } from '../../../testing/multipart.ts';
import { storedNames, type TStorageDriver } from '../../../testing/storage.ts';
import { createTestPortal, startJobWorker, type TestPortal } from '../../../testing/test-runtime.ts';
import { jobOutbox, trainingVideoSets, trainingVideos } from '../../db/schema.ts';
import { createBullmqDispatcher, createInProcessDispatcher, JOBS_QUEUE, type JobDispatcher } from './dispatcher.ts';
import { insertIntent } from './outbox.repository.ts';
import { requeuePending } from './reconciler.ts';
import type { JobContext } from './runner.ts';

/*
 * The runner stopping (SIGTERM on a worker, or on the portal running its own jobs) during a
 * transcode: ffmpeg stops, its files go, the job is handed back with no try counted and the video
 * waits again; a short job under way still finishes. The next runner prepares the video.
 */

let clipDir: string;
let lecture: Buffer;
beforeAll(async () => {
  clipDir = mkdtempSync(path.join(tmpdir(), 'hand-back-clips-'));
  // Two minutes at 320×240: small and quick to make, still being transcoded when the runner stops.
  lecture = readFileSync(await makeClip(clipDir, 'lecture.mp4', { width: 320, height: 240, seconds: 120, audio: true }));
}, 120_000);
afterAll(() => rmSync(clipDir, { recursive: true, force: true }));

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort();
}

async function until<T>(label: string, check: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${label}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a runner does with the outbox's jobs, and how it stops. */
type TRunner = {
  dispatcher: JobDispatcher;
  stop(): Promise<void>;
};

const runners: Array<{ name: string; storage: TStorageDriver; redis: boolean }> = [
  { name: 'in-process runner, files on the local disk', storage: 'local', redis: false },
  { name: 'in-process runner, files in a bucket', storage: 's3', redis: false },
  { name: 'BullMQ worker, files on the local disk', storage: 'local', redis: true },
];

// A portal of its own per runner: each has its storage driver, and its own runner closed for the test's.
for (const runner of runners) {
  describe.runIf(!runner.redis || inject('redisUrl'))(`the ${runner.name} stopping during a transcode`, () => {
    let portal: TestPortal;
    const prefix = `hand-back-${Math.random().toString(36).slice(2, 8)}`;
    const closers: Array<() => Promise<unknown>> = [];
    beforeAll(async () => {
      portal = await createTestPortal({ storage: runner.storage });
      // The portal's own runner is closed: the runners below take the jobs, so the test stops them.
      await portal.runtime.jobs.close();
    }, 60_000);
    afterAll(async () => {
      for (const close of closers.reverse()) await close();
      await portal.close();
    });

    /** A runner of the test's on the portal's database and files, logging to `lines`. */
    function startRunner(lines: string[], extra: Partial<JobContext> = {}): TRunner {
      const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
      const ctx: JobContext = { ...portal.runtime.jobContext, logger, ...extra };
      if (!runner.redis) {
        const dispatcher = createInProcessDispatcher(ctx);
        return { dispatcher, stop: () => dispatcher.close() };
      }
      const redisUrl = inject('redisUrl')!;
      const dispatcher = createBullmqDispatcher(redisUrl, logger, prefix);
      const worker = startJobWorker(ctx, redisUrl, { prefix });
      closers.push(() => dispatcher.close(), () => worker.close());
      return { dispatcher, stop: () => worker.close() };
    }

    it('stops ffmpeg, removes its files, hands the job back not failed and lets a short job finish; the next runner prepares the video', async () => {
      const admin = await createUser(portal.runtime.db, { role: 'admin' });
      const course = await createCourse(portal.runtime.db);
      const body = form([
        { name: 'courseId', value: course.id },
        { name: 'title', value: 'Bridge watchkeeping' },
        { name: 'trainingVideo', file: lecture, filename: 'lecture.mp4', type: 'video/mp4' },
      ]);
      const uploaded = await portal.app.inject({ method: 'POST', url: '/api/trainingVideo', headers: { ...body.headers, authorization: portal.authorization(admin) }, payload: body.payload });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const videoId = (
        await portal.runtime.db
          .select({ id: trainingVideos.id })
          .from(trainingVideos)
          .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
          .where(eq(trainingVideoSets.courseId, course.id))
      )[0]!.id;
      const videoOf = async () => (await portal.runtime.db.select().from(trainingVideos).where(eq(trainingVideos.id, videoId)))[0]!;
      const transcodeRow = async () => (await portal.runtime.db.select().from(jobOutbox).where(sql`${jobOutbox.payload}->>'videoId' = ${videoId}`))[0]!;
      const { id: transcodeId, name: transcodeName } = await transcodeRow();
      const source = (await videoOf()).sourceFile;

      // A short job (as a mail or a PDF) that pays no heed to the stop, under way beside the
      // transcode until the test lets it end.
      let shortStarted = false;
      let endShort = () => {};
      const shortMayEnd = new Promise<void>((resolve) => (endShort = resolve));
      const shortJob = {
        payload: z.object({}),
        run: async () => {
          shortStarted = true;
          await shortMayEnd;
        },
      };
      const processors = { ...portal.runtime.jobContext.processors, 'short-job': shortJob };
      const shortId = await insertIntent(portal.runtime.db, { name: 'short-job', businessKey: `${runner.name}-${videoId}`, payload: {} });

      const firstLog: string[] = [];
      const first = startRunner(firstLog, { processors });
      await first.dispatcher.dispatch([{ id: transcodeId, name: transcodeName }]);
      // ffmpeg is writing its outputs (`.…part`, beside the stored files or in the scratch folder).
      await until('the transcode under way', async () => (await filesUnder(portal.dataDir)).some((file) => file.endsWith('.part')));
      await first.dispatcher.dispatch([{ id: shortId, name: 'short-job' }]);
      await until('the short job under way', async () => shortStarted);

      let stopped = false;
      const stopping = first.stop().then(() => (stopped = true));
      // The transcode hands itself back at once; the stop still waits for the short job.
      try {
        await until('the transcode handed back', async () => firstLog.join('').includes(`handing back transcode-video ${transcodeId}`));
        expect(stopped).toBe(false);
      } finally {
        endShort();
      }
      await stopping;
      const said = firstLog.join('');
      expect(said).toContain(`handing back transcode-video ${transcodeId}`);
      expect(said).not.toContain('job failed');
      expect(said).not.toContain('handing back short-job');
      // The short job finished; the transcode left no file but the upload, and counted no try.
      expect((await portal.runtime.db.select().from(jobOutbox).where(eq(jobOutbox.id, shortId)))[0]).toMatchObject({ status: 'done' });
      expect(await filesUnder(portal.dataDir)).toEqual(runner.storage === 'local' ? [path.join('files', 'trainingVideo', source)] : []);
      expect(await storedNames(portal.runtime.files, 'trainingVideo')).toEqual([source]);
      expect(await videoOf()).toMatchObject({ status: 'pending', progressPercent: 0, error: null, renditions: [] });
      expect(await transcodeRow()).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
      if (runner.redis) {
        const connection = new Redis(inject('redisUrl')!, { maxRetriesPerRequest: null });
        const queue = new Queue(JOBS_QUEUE, { connection, prefix });
        const job = (await queue.getJob(transcodeId))!;
        expect(await job.getState()).toBe('waiting');
        expect(job.attemptsMade).toBe(0);
        await queue.close();
        connection.disconnect();
      }

      // The next runner: a worker takes the job from the queue; the portal, started again, from
      // its reconciler, which hands it every pending row.
      const secondLog: string[] = [];
      const second = startRunner(secondLog);
      if (!runner.redis) await requeuePending(portal.runtime.db, second.dispatcher, portal.runtime.logger);
      const ready = await until('the video prepared', async () => {
        const video = await videoOf();
        return video.status === 'ready' ? video : undefined;
      });
      expect(ready.renditions.map((rendition) => rendition.height)).toEqual([240]);
      expect((await storedNames(portal.runtime.files, 'trainingVideo')).sort()).toEqual(
        [source, ...ready.renditions.map((rendition) => rendition.file), ready.posterFile!].sort(),
      );
      await until('the row done', async () => (await transcodeRow()).status === 'done');
      expect(await transcodeRow()).toMatchObject({ status: 'done', attempts: 1, lastError: null });
      expect(secondLog.join('')).not.toContain('job failed');
      await second.stop();
    }, 240_000);
  });
}

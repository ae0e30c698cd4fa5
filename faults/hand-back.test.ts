import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { jobOutbox, trainingVideoSets, trainingVideos } from '../src/server/db/schema.ts';
import { createCourse } from '../src/testing/factories.ts';
import { makeClip } from '../src/testing/media.ts';
import { form } from '../src/testing/multipart.ts';
import { adminLogin, eventually, faultsCanRun, queueKey, startPlatform, startPortal, stopGently, type TProcess } from './support.ts';

/*
 * SIGTERM (docker stop) on the process that runs a transcode: ffmpeg is stopped and its files
 * removed, the job goes back in line with no try counted, the video waits again (not failed), the
 * process exits 0 at once; the next worker, or the portal started again, prepares the video.
 */

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

/** The ffmpeg processes whose command line names a file under `dir` (Linux's /proc). */
function ffmpegUnder(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(argv[0] ?? '') === 'ffmpeg' && argv.some((arg) => arg.includes(dir))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * A two-minute lecture at 320×240 (small, so the run stays quick, long enough that its transcode
 * is still under way when the signal comes), uploaded through the portal. Answers the video's row
 * and its transcode job's outbox id.
 */
async function uploadLecture(base: string, dataDir: string) {
  const course = await createCourse(db.db);
  const token = await adminLogin(base);
  const clip = await readFile(await makeClip(dataDir, 'watchkeeping.mp4', { width: 320, height: 240, seconds: 120, audio: true }));
  const upload = form([
    { name: 'courseId', value: course.id },
    { name: 'title', value: 'Bridge watchkeeping' },
    { name: 'trainingVideo', file: clip, filename: 'watchkeeping.mp4', type: 'video/mp4' },
  ]);
  const uploaded = await fetch(`${base}/api/trainingVideo`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...upload.headers }, body: upload.payload });
  expect(uploaded.status).toBe(201);
  const videoOf = async () =>
    (
      await db.db
        .select({ id: trainingVideos.id, status: trainingVideos.status, progress: trainingVideos.progressPercent, error: trainingVideos.error, renditions: trainingVideos.renditions, poster: trainingVideos.posterFile, source: trainingVideos.sourceFile })
        .from(trainingVideos)
        .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
        .where(eq(trainingVideoSets.courseId, course.id))
    )[0]!;
  const { id } = await videoOf();
  const outboxOf = async () =>
    (
      await db.db
        .select({ id: jobOutbox.id, status: jobOutbox.status, attempts: jobOutbox.attempts, lastError: jobOutbox.lastError })
        .from(jobOutbox)
        .where(and(eq(jobOutbox.name, 'transcode-video'), sql`${jobOutbox.payload}->>'videoId' = ${id}`))
    )[0]!;
  return { videoOf, outboxOf, outboxId: (await outboxOf()).id };
}

/** Waits until ffmpeg runs on the video and has begun writing its outputs; answers its process ids. */
async function transcodeUnderWay(dataDir: string, videoArea: string, runner: TProcess) {
  return eventually('ffmpeg writing the renditions', async () => {
    const ffmpeg = ffmpegUnder(dataDir);
    const parts = (await readdir(videoArea).catch(() => [])).filter((name) => name.endsWith('.part'));
    return ffmpeg.length > 0 && parts.length > 0 ? ffmpeg : undefined;
  }, 90_000).catch((error: Error) => {
    throw new Error(`${error.message}; it said:\n${runner.log().slice(-4000)}`);
  });
}

/** SIGTERM, and how the process ended: its exit code and the seconds it took. */
async function terminate(process_: TProcess) {
  const signalledAt = Date.now();
  process_.child.kill('SIGTERM');
  const code = await process_.exited;
  return { code, seconds: (Date.now() - signalledAt) / 1000 };
}

/** Every file of the video's area, the temporary ones (`.…part`) included. */
const filesIn = (dir: string) => readdir(dir).then((names) => names.sort());

describe.runIf(services)('SIGTERM on a worker during a transcode', () => {
  it('hands the job back at once, not failed, and the next worker prepares the video', async () => {
    const { dataDir, redis, portal, worker } = await startPlatform(services!.databaseUrl, { running, cleanups });
    const videoArea = path.join(dataDir, 'files', 'trainingVideo');
    const first = worker();
    const { videoOf, outboxOf, outboxId } = await uploadLecture(portal.base, dataDir);
    const ffmpeg = await transcodeUnderWay(dataDir, videoArea, first);
    expect((await videoOf()).status).toBe('processing');

    const stop = await terminate(first);
    expect(stop.code, first.log().slice(-3000)).toBe(0);
    // At once: not the rest of a two-minute lecture's transcode, nor the stop's grace period.
    expect(stop.seconds).toBeLessThan(10);
    const said = first.log();
    expect(said).toContain('worker stopping');
    expect(said).toContain(`handing back transcode-video ${outboxId}`);
    expect(said).toContain('worker stopped');
    expect(said).not.toContain('job failed');

    // ffmpeg stopped, and neither its half-written outputs nor a finished rendition are left.
    expect(ffmpeg.filter((pid) => ffmpegUnder(dataDir).includes(pid))).toEqual([]);
    const source = (await videoOf()).source;
    expect(await filesIn(videoArea)).toEqual([source]);
    // The admin sees it waiting, as before any worker took it; no try counted anywhere.
    expect(await videoOf()).toMatchObject({ status: 'pending', progress: 0, error: null, renditions: [] });
    expect(await outboxOf()).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
    const queue = new Redis(redis.url);
    cleanups.push(() => queue.quit());
    expect(await queue.lrange(queueKey('wait'), 0, -1)).toContain(outboxId);
    expect(await queue.lrange(queueKey('active'), 0, -1)).not.toContain(outboxId);
    expect(await queue.zscore(queueKey('failed'), outboxId)).toBeNull();
    expect(Number((await queue.hget(queueKey(outboxId), 'atm')) ?? 0)).toBe(0);

    // The next worker takes it from the queue as it starts, and runs it from the beginning.
    const second = worker();
    const ready = await eventually('the video prepared by the next worker', async () => {
      const video = await videoOf();
      return video.status === 'ready' ? video : undefined;
    }, 120_000).catch((error: Error) => {
      throw new Error(`${error.message}; the worker said:\n${second.log().slice(-4000)}`);
    });
    expect(ready.renditions.map((rendition) => rendition.height)).toEqual([240]);
    expect(await filesIn(videoArea)).toEqual([ready.source, ...ready.renditions.map((rendition) => rendition.file), ready.poster].sort());
    expect(await outboxOf()).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    expect(second.log()).not.toContain('job failed');
    await stopGently(second);
  }, 300_000);
});

describe.runIf(services)('SIGTERM on the portal running its own jobs (no Redis) during a transcode', () => {
  it('hands the job back to the outbox, and the portal started again prepares the video', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-faults-hand-back-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const videoArea = path.join(dataDir, 'files', 'trainingVideo');
    const env = { DATABASE_URL: services!.databaseUrl, DATA_DIR: dataDir };
    const portal = await startPortal(env);
    running.push(portal);
    const { videoOf, outboxOf, outboxId } = await uploadLecture(portal.base, dataDir);
    const ffmpeg = await transcodeUnderWay(dataDir, videoArea, portal);

    const stop = await terminate(portal);
    expect(stop.code, portal.log().slice(-3000)).toBe(0);
    expect(stop.seconds).toBeLessThan(10);
    const said = portal.log();
    expect(said).toContain('shutting down');
    expect(said).toContain(`handing back transcode-video ${outboxId}`);
    expect(said).not.toContain('job failed');
    expect(ffmpeg.filter((pid) => ffmpegUnder(dataDir).includes(pid))).toEqual([]);
    expect(await filesIn(videoArea)).toEqual([(await videoOf()).source]);
    expect(await videoOf()).toMatchObject({ status: 'pending', progress: 0, error: null, renditions: [] });
    expect(await outboxOf()).toMatchObject({ status: 'pending', attempts: 0, lastError: null });

    // Started again, the portal's reconciler hands the pending row to its runner.
    const again = await startPortal(env);
    running.push(again);
    const ready = await eventually('the video prepared after the restart', async () => {
      const video = await videoOf();
      return video.status === 'ready' ? video : undefined;
    }, 120_000).catch((error: Error) => {
      throw new Error(`${error.message}; the portal said:\n${again.log().slice(-4000)}`);
    });
    expect(ready.renditions.length).toBe(1);
    expect(await outboxOf()).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    await stopGently(again);
  }, 300_000);
});

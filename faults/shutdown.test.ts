import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/server/db/client.ts';
import { testAttempts, trainingVideoSets, trainingVideos } from '../src/server/db/schema.ts';
import { LOWEST_PRIORITY } from '../src/server/lib/hashing-threads.ts';
import { makeClip } from '../src/testing/media.ts';
import { form } from '../src/testing/multipart.ts';
import { threadStats } from '../src/testing/proc-stat.ts';
import { authed, eventually, faultsCanRun, json, learnerBeforeTheTest, slowRequest, startPortal } from './support.ts';

const services = faultsCanRun();
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-faults-stop-'));
let db: DatabaseHandle;

beforeAll(async () => {
  if (services) db = await openDatabase({ url: services.databaseUrl, maxConnections: 2 });
});
afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(services)('SIGTERM on the portal', () => {
  it('lets an upload and a test submission in flight finish, answers new requests 503, then exits cleanly', async () => {
    // At debug the portal logs each request as it comes in.
    const portal = await startPortal({ DATABASE_URL: services!.databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    const { base } = portal;
    const { adminToken, course, learner, token: learnerToken, answer } = await learnerBeforeTheTest(base, db.db);
    // The logins just now were checked on the built portal's hashing threads, at the lowest priority.
    if (process.platform === 'linux') expect(threadStats(portal.child.pid!).map((thread) => thread.nice)).toContain(LOWEST_PRIORITY);

    // Both requests send half their body, and are in flight when the signal comes.
    const clip = await readFile(await makeClip(dataDir, 'briefing.mp4', { width: 320, height: 240, seconds: 2 }));
    const upload = form([
      { name: 'courseId', value: course.id },
      { name: 'title', value: 'Safety briefing' },
      { name: 'trainingVideo', file: clip, filename: 'briefing.mp4', type: 'video/mp4' },
    ]);
    const uploading = slowRequest(`${base}/api/trainingVideo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, ...upload.headers },
      body: upload.payload,
    });
    const submitting = slowRequest(`${base}/api/submitTest`, {
      method: 'POST',
      headers: authed(learnerToken),
      body: Buffer.from(JSON.stringify(answer)),
    });
    const cameIn = (url: string) => portal.log().split('\n').some((line) => line.includes('"msg":"incoming request"') && line.includes(`"url":"${url}"`));
    await eventually('both requests in flight', async () => cameIn('/api/trainingVideo') && cameIn('/api/submitTest'));

    portal.child.kill('SIGTERM');
    const refused = await eventually('new requests refused', async () => {
      const answer = await fetch(`${base}/api/courses/active`);
      if (answer.status === 503) return answer;
      await answer.body?.cancel();
      return undefined;
    }, 10_000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await json(refused)).toMatchObject({ message: 'The server is restarting. Please try again in a moment.' });
    expect(portal.child.exitCode).toBeNull();

    uploading.finish();
    submitting.finish();
    const [uploaded, submitted] = await Promise.all([uploading.answer, submitting.answer]);
    expect(uploaded.status).toBe(201);
    expect(submitted.status).toBe(201);
    expect(submitted.body.data.percentage).toBe(100);
    expect(await portal.exited).toBe(0);

    // What they wrote is there, once.
    const videos = await db.db
      .select({ name: trainingVideos.originalName })
      .from(trainingVideos)
      .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
      .where(eq(trainingVideoSets.courseId, course.id));
    expect(videos).toEqual([{ name: 'briefing' }]);
    const attempts = await db.db.select().from(testAttempts).where(eq(testAttempts.userId, learner.id));
    expect(attempts.map((attempt) => attempt.passed)).toEqual([true]);
  }, 90_000);
});

import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createReadyTraining, createUser, sessionOf, TEST_PASSWORD } from '../../../testing/factories.ts';
import { makeClip } from '../../../testing/media.ts';
import { form, PNG, type TFormPart } from '../../../testing/multipart.ts';
import { STORAGE_DRIVERS, storedNames as namesIn } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { enrolments, trainingVideos, trainingVideoSets, watchProgress, watchRefusals } from '../../db/schema.ts';
import { STREAM_PASS_COOKIE, STREAM_PASS_TTL_SECONDS, STREAM_PATH, streamPassCookie } from './stream-pass.ts';
import { REFUSAL_REASONS } from './training.service.ts';
import { restSignIn } from '../../../testing/second-factor.ts';

const T = MESSAGES.training;
type TUser = Awaited<ReturnType<typeof createUser>>;

let clipDir: string;
let clipA: Buffer;
let clipB: Buffer;
beforeAll(async () => {
  clipDir = mkdtempSync(path.join(tmpdir(), 'training-clips-'));
  [clipA, clipB] = await Promise.all([
    makeClip(clipDir, 'a.mp4', { width: 320, height: 240, seconds: 2, audio: true }).then((file) => readFileSync(file)),
    makeClip(clipDir, 'b.webm', { width: 320, height: 240, seconds: 2, container: 'webm' }).then((file) => readFileSync(file)),
  ]);
}, 60_000);
afterAll(() => rmSync(clipDir, { recursive: true, force: true }));

// A portal of its own per storage driver (the file's shared portal has one driver).
describe.each(STORAGE_DRIVERS)('training videos on the %s storage', (driver) => {
  let portal: TestPortal;
  let admin: TUser;

  beforeAll(async () => {
    portal = await createTestPortal({ storage: driver });
    admin = await createUser(portal.runtime.db, { role: 'admin' });
  }, 60_000);
  afterAll(() => portal.close());

  const as = (user: TUser) => portal.caller(sessionOf(user));
  const storedNames = () => namesIn(portal.runtime.files, 'trainingVideo');

  function upload(user: TUser, parts: TFormPart[]) {
    const body = form(parts);
    return portal.app.inject({ method: 'POST', url: '/api/trainingVideo', headers: { ...body.headers, authorization: portal.authorization(user) }, payload: body.payload });
  }

  const videoParts = (courseId: string, title: string, files: Array<[Buffer, string]>): TFormPart[] => [
    { name: 'courseId', value: courseId },
    { name: 'title', value: title },
    ...files.map(([file, filename]) => ({ name: 'trainingVideo', file, filename, type: 'video/mp4' })),
  ];

  async function approvedLearnerIn(courseId: string) {
    const learner = await createUser(portal.runtime.db, { approvedAt: new Date() });
    await createEnrolment(portal.runtime.db, { userId: learner.id, courseId, status: 'approved', decidedAt: new Date() });
    return learner;
  }

  /** A course whose training has a ready part (rows only) of each length: heartbeats, locks, submission. */
  const readyTraining = (durations: number[]) => createReadyTraining(portal.runtime.db, durations);

  /** Moves the learner's last heartbeat on a video back in time, as if that long had passed. */
  async function letTimePass(userId: string, videoId: string, seconds: number) {
    await portal.runtime.db
      .update(watchProgress)
      .set({ lastBeatAt: sql`${watchProgress.lastBeatAt} - make_interval(secs => ${seconds})` })
      .where(sql`${watchProgress.userId} = ${userId} and ${watchProgress.videoId} = ${videoId}`);
  }

  describe('uploading training videos', () => {
    it('stores each video as the next part, queues its transcode, and the job makes 360p MP4s and a poster', async () => {
      const course = await createCourse(portal.runtime.db);
      const res = await upload(admin, videoParts(course.id, 'Fire fighting basics', [[clipA, 'Part_one.mp4'], [clipB, 'part two.webm']]));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().message).toBe(T.uploaded(2));
      expect(res.json().data).toMatchObject({ courseId: course.id, title: 'Fire fighting basics' });
      expect(res.json().data.trainingVideo.map((video: { serial: number }) => video.serial)).toEqual([1, 2]);

      await portal.drainJobs();
      // Stream links are made for the caller's session (a caller without one gets none).
      const sets = await portal.caller({ ...sessionOf(admin), sessionId: randomUUID() }).training.sets();
      const set = sets.find((candidate) => candidate.course.id === course.id)!;
      expect(set.videos.map((video) => [video.serial, video.title, video.status, video.progressPercent])).toEqual([
        [1, 'Part one', 'ready', 100],
        [2, 'part two', 'ready', 100],
      ]);
      for (const video of set.videos) {
        // A 240-line source is never upscaled: one rendition at its own height.
        expect(video.sources.map((source) => source.height)).toEqual([240]);
        expect(video.durationSeconds).toBeGreaterThan(1.5);
        expect(video.posterUrl).toMatch(/^\/api\/files\/trainingVideo\/[0-9a-f-]{36}\.jpg\?/);
        const poster = await portal.app.inject({ url: video.posterUrl! });
        expect(poster.statusCode).toBe(200);
        expect(poster.headers['content-type']).toBe('image/jpeg');
      }
      const rows = await portal.runtime.db.select().from(trainingVideos).where(eq(trainingVideos.setId, set.id));
      const expected = rows.flatMap((row) => [row.sourceFile, row.posterFile!, ...row.renditions.map((rendition) => rendition.file)]);
      for (const name of expected) expect((await storedNames())).toContain(name);
      expect((await storedNames()).filter((name) => name.startsWith('.'))).toEqual([]);
      // With a bucket, ffmpeg worked on copies in the process's scratch folder: none is left.
      const scratch = path.join(portal.dataDir, 'scratch');
      expect(existsSync(scratch) ? readdirSync(scratch).flatMap((folder) => readdirSync(path.join(scratch, folder))) : []).toEqual([]);

      // A second upload to the same course adds parts after the existing ones.
      const more = await upload(admin, videoParts(course.id, 'Fire fighting basics', [[clipA, 'three.mp4']]));
      expect(more.json().data.trainingVideo.map((video: { serial: number }) => video.serial)).toEqual([1, 2, 3]);
      await portal.drainJobs();
    });

    it('refuses what is not a video, from its bytes, and keeps no row and no file', async () => {
      const course = await createCourse(portal.runtime.db);
      const before = (await storedNames());
      const res = await upload(admin, videoParts(course.id, 'Safety', [[clipA, 'ok.mp4'], [PNG, 'holiday.mp4']]));
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toMatchObject({ message: T.notAVideo, errors: { trainingVideo: T.notAVideo } });
      expect((await storedNames())).toEqual(before);
      expect(await portal.runtime.db.select().from(trainingVideoSets).where(eq(trainingVideoSets.courseId, course.id))).toEqual([]);
    });

    it('answers each missing field by name and keeps nothing', async () => {
      const course = await createCourse(portal.runtime.db);
      const before = (await storedNames());
      const noTitle = await upload(admin, videoParts(course.id, '  ', [[clipA, 'a.mp4']]));
      expect(noTitle.statusCode).toBe(400);
      expect(noTitle.json().errors, noTitle.body).toMatchObject({ title: T.titleRequired });
      const noFile = await upload(admin, videoParts(course.id, 'Title', []));
      expect(noFile.statusCode).toBe(400);
      expect(noFile.json().errors).toMatchObject({ trainingVideo: T.videoRequired });
      const noCourse = await upload(admin, videoParts('00000000-0000-4000-8000-000000000000', 'Title', [[clipA, 'a.mp4']]));
      expect(noCourse.statusCode).toBe(404);
      expect((await storedNames())).toEqual(before);
      // No part was kept for the course, so no transcode was queued: a part and its job's outbox
      // row are written in one transaction. (Other test files share the database and queue their
      // own transcodes meanwhile: only this course's rows say what these uploads left.)
      const kept = await portal.runtime.db
        .select({ id: trainingVideos.id })
        .from(trainingVideos)
        .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
        .where(eq(trainingVideoSets.courseId, course.id));
      expect(kept).toEqual([]);
    });

    it('keeps no row and no file when the upload is cut off mid-way', async () => {
      const course = await createCourse(portal.runtime.db);
      const address = await portal.app.listen({ port: 0, host: '127.0.0.1' });
      const before = (await storedNames());
      const boundary = '----cut-off';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="courseId"\r\n\r\n${course.id}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nCut off\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="trainingVideo"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
      const { port } = new URL(address);
      // The server's end of the connection, to see what of the request it has read.
      const accepted = new Promise<Socket>((resolve) => portal.app.server.once('connection', resolve));
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const request =
        `POST /api/trainingVideo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${portal.authorization(admin)}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 50 * 1024 * 1024}\r\n\r\n`;
      socket.write(request);
      socket.write(head);
      socket.write(clipA);
      const serverSide = await accepted;
      // A part of the file arrives (on disk, its temporary file is there), then the link drops.
      const sent = Buffer.byteLength(request) + Buffer.byteLength(head) + clipA.length;
      const arrived = async () => (driver === 'local' ? (await storedNames()).some((name) => name.endsWith('.part')) : serverSide.bytesRead >= sent);
      await expect.poll(arrived, { timeout: 10_000 }).toBe(true);
      const partial = (await storedNames()).filter((name) => name.endsWith('.part'));
      socket.destroy();
      // On disk the file being received is there under a temporary name; a bucket shows nothing
      // before the upload completes.
      expect(partial).toHaveLength(driver === 'local' ? 1 : 0);
      // The server notices the closed connection and cleans up.
      await expect.poll(storedNames, { timeout: 5_000 }).toEqual(before);
      expect(await portal.runtime.db.select().from(trainingVideoSets).where(eq(trainingVideoSets.courseId, course.id))).toEqual([]);
    });

    it('is for administrators only', async () => {
      const course = await createCourse(portal.runtime.db);
      const learner = await approvedLearnerIn(course.id);
      const res = await upload(learner, videoParts(course.id, 'Title', [[clipA, 'a.mp4']]));
      expect(res.statusCode).toBe(403);
    });

    it('marks a file that only looks like a video failed, with the reason, and can retry it', async () => {
      const course = await createCourse(portal.runtime.db);
      const fake = Buffer.concat([clipA.subarray(0, 32), Buffer.alloc(4096, 7)]);
      const res = await upload(admin, videoParts(course.id, 'Broken', [[fake, 'broken.mp4']]));
      expect(res.statusCode, res.body).toBe(201);
      await portal.drainJobs();
      const set = (await as(admin).training.sets()).find((candidate) => candidate.course.id === course.id)!;
      expect(set.videos[0]).toMatchObject({ status: 'failed', sources: [] });
      expect(set.videos[0]!.error).toMatch(/not a playable video|incomplete|damaged/i);

      const retry = await as(admin).training.retry({ videoId: set.videos[0]!.id });
      expect(retry.message).toBe(T.retried);
      await portal.drainJobs();
      const again = (await as(admin).training.sets()).find((candidate) => candidate.course.id === course.id)!;
      expect(again.videos[0]!.status).toBe('failed');
    });
  });

  describe('the order of the parts', () => {
    it('is changed by listing every part once; anything else is refused', async () => {
      const { set, videos } = await readyTraining([60, 60, 60]);
      const [a, b, c] = videos.map((video) => video.id) as [string, string, string];
      const saved = await as(admin).training.reorder({ setId: set.id, videoIds: [c, a, b] });
      expect(saved.videos.map((video) => video.id)).toEqual([c, a, b]);
      expect(saved.videos.map((video) => video.serial)).toEqual([1, 2, 3]);
      await expect(as(admin).training.reorder({ setId: set.id, videoIds: [a, b] })).rejects.toMatchObject({ message: T.reorderMismatch });
      await expect(as(admin).training.reorder({ setId: set.id, videoIds: [a, a, b] })).rejects.toMatchObject({ message: T.reorderMismatch });
    });

    it('deleting a part moves the later ones up and removes its files', async () => {
      const course = await createCourse(portal.runtime.db);
      await upload(admin, videoParts(course.id, 'Two parts', [[clipA, 'one.mp4'], [clipA, 'two.mp4']]));
      await portal.drainJobs();
      const set = (await as(admin).training.sets()).find((candidate) => candidate.course.id === course.id)!;
      const [first] = await portal.runtime.db.select().from(trainingVideos).where(eq(trainingVideos.id, set.videos[0]!.id));
      await as(admin).training.deleteVideo({ videoId: first!.id });
      const after = (await as(admin).training.sets()).find((candidate) => candidate.course.id === course.id)!;
      expect(after.videos.map((video) => [video.serial, video.title])).toEqual([[1, 'two']]);
      for (const name of [first!.sourceFile, first!.posterFile!, ...first!.renditions.map((rendition) => rendition.file)]) {
        expect((await storedNames())).not.toContain(name);
      }
    });
  });

  /** Signs in through the spec's login, as a client would: a bearer header from a real session. */
  async function signIn(user: TUser, ip = '127.0.0.1') {
    const res = await restSignIn(portal.app, user.email, TEST_PASSWORD, ip);
    expect(res.statusCode, res.body).toBe(200);
    const { accessToken, refreshToken } = res.json() as { accessToken: string; refreshToken: string };
    return { authorization: `Bearer ${accessToken}`, refreshToken };
  }

  /** The stream pass a response set, as the browser would send it back (`name=value`). */
  function passOf(res: { headers: Record<string, unknown> }): string {
    const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
    const pass = cookies.find((cookie) => cookie.startsWith(`${STREAM_PASS_COOKIE}=`));
    expect(pass, 'a stream pass cookie').toBeDefined();
    expect(pass).toContain(`Path=${STREAM_PATH}`);
    expect(pass).toContain('HttpOnly');
    expect(pass).toContain('SameSite=Strict');
    return pass!.split(';')[0]!;
  }

  /** A report through the documented REST path, as a third-party player sends it. */
  function report(authorization: string, videoId: string, from: number, to: number) {
    return portal.app.inject({ method: 'POST', url: '/api/trainingVideo/watched', headers: { authorization }, payload: { videoId, from, to, position: to } });
  }

  const recordOf = async (userId: string, videoId: string) =>
    (await portal.runtime.db.select().from(watchProgress).where(and(eq(watchProgress.userId, userId), eq(watchProgress.videoId, videoId))))[0];

  // Rows only, no files: once is enough.
  describe.runIf(driver === 'local')('the learner\'s progress', () => {
    it('locks part 2 until part 1 is watched, and credits honest playback in full', async () => {
      const { course, set, videos } = await readyTraining([100, 100]);
      const learner = await approvedLearnerIn(course.id);
      const me = as(learner);
      const [one, two] = videos as [(typeof videos)[0], (typeof videos)[0]];

      const player = await me.training.player({ courseId: course.id });
      expect(player.videos.map((video) => [video.locked, video.completed])).toEqual([
        [false, false],
        [true, false],
      ]);
      expect(player).toMatchObject({ setId: set.id, currentIndex: 0, allCompleted: false, progress: { percent: 0 } });

      // Part 2 refuses progress while locked, and nothing is written.
      await expect(me.training.heartbeat({ videoId: two.id, from: 0, to: 10, position: 10 })).rejects.toMatchObject({ message: T.locked });
      expect(await portal.runtime.db.select().from(watchProgress).where(eq(watchProgress.userId, learner.id))).toEqual([]);

      // Playback starts, then a report every ten seconds of real time: the same seconds twice count once.
      await me.training.heartbeat({ videoId: one.id, from: 0, to: 0, position: 0 });
      let last;
      for (let start = 0; start < 100; start += 10) {
        await letTimePass(learner.id, one.id, 10);
        last = await me.training.heartbeat({ videoId: one.id, from: start, to: start + 10, position: start + 10 });
        expect(last.completed, `after ${start + 10} s`).toBe(start + 10 >= 95);
      }
      expect(last).toMatchObject({ watchedSeconds: 100, progress: { completedVideos: 1, totalVideos: 2, percent: 50 }, allCompleted: false });
      expect(await portal.runtime.db.select().from(watchRefusals).where(eq(watchRefusals.userId, learner.id))).toEqual([]);

      await me.training.heartbeat({ videoId: two.id, from: 0, to: 0, position: 0 });
      await letTimePass(learner.id, two.id, 10);
      await me.training.heartbeat({ videoId: two.id, from: 0, to: 10, position: 10 });
      const resumed = await me.training.player({ courseId: course.id });
      expect(resumed.videos[1]).toMatchObject({ locked: false, completed: false, resumeAt: 10, watchedSeconds: 10 });
      expect(resumed.currentIndex).toBe(1);
    });

    it('credits reports sent back to back no faster than the server\'s clock, so the training cannot be submitted (finding 1)', async () => {
      const { course, set, videos } = await readyTraining([60]);
      const learner = await approvedLearnerIn(course.id);
      const { authorization } = await signIn(learner);
      const videoId = videos[0]!.id;

      // One report of 0-13 s, then 22 reports of 2 s each, sent at once.
      expect((await report(authorization, videoId, 0, 13)).statusCode).toBe(200);
      const answers = await Promise.all(Array.from({ length: 22 }, (_, index) => report(authorization, videoId, 13 + index * 2, 15 + index * 2)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      const record = await recordOf(learner.id, videoId);
      expect(record!.completedAt).toBeNull();
      // What the server saw pass (well under a few seconds here) plus its slack of 2 s.
      expect(record!.watchedSeconds).toBeLessThanOrEqual(record!.observedSeconds + 2 + 1e-6);
      // Far from the 57 s the reports claimed (the bound is what the server's clock saw, not a time of this machine).
      expect(record!.watchedSeconds).toBeLessThan(57);

      const submit = await portal.app.inject({ method: 'POST', url: `/api/videoWatchedUser/${set.id}`, headers: { authorization } });
      expect(submit.statusCode).toBe(400);
      expect(submit.json().message).toBe(T.notComplete);
      // The auditor sees what was claimed and refused, and why.
      const refusals = await portal.runtime.db.select().from(watchRefusals).where(eq(watchRefusals.userId, learner.id));
      expect(refusals.length).toBeGreaterThan(0);
      expect(refusals.every((refusal) => refusal.reason === REFUSAL_REASONS.aheadOfClock && refusal.videoId === videoId)).toBe(true);
    });

    it('never credits the gaps between reported spans (finding 2)', async () => {
      const { course, videos } = await readyTraining([60]);
      const learner = await approvedLearnerIn(course.id);
      const me = as(learner);
      const videoId = videos[0]!.id;
      await me.training.heartbeat({ videoId, from: 0, to: 0, position: 0 });
      let answer;
      for (let index = 0; index < 40; index += 1) {
        await letTimePass(learner.id, videoId, 0.5);
        answer = await me.training.heartbeat({ videoId, from: index * 0.5, to: index * 0.5 + 0.01, position: index * 0.5 + 0.01 });
      }
      expect(answer!.watchedSeconds).toBeCloseTo(0.4, 1);
      expect((await recordOf(learner.id, videoId))!.watchedSeconds).toBeCloseTo(0.4, 3);
    });

    it('completes a part of D seconds only after 0.95 × D of the server\'s clock, however the reports are timed', async () => {
      const { course, videos } = await readyTraining([60]);
      const learner = await approvedLearnerIn(course.id);
      const { authorization } = await signIn(learner);
      const videoId = videos[0]!.id;
      expect((await report(authorization, videoId, 0, 0)).statusCode).toBe(200);
      // 50 s later, every second of the part at once: credited only as far as the clock covers.
      await letTimePass(learner.id, videoId, 50);
      for (let second = 0; second < 60; second += 1) await report(authorization, videoId, second, second + 1);
      let record = await recordOf(learner.id, videoId);
      expect(record!.completedAt).toBeNull();
      expect(record!.watchedSeconds).toBeLessThanOrEqual(record!.observedSeconds + 2 + 1e-6);
      // Seven more seconds pass: the clock has seen 57 s = 0.95 × 60, and the part completes.
      await letTimePass(learner.id, videoId, 7);
      const last = await report(authorization, videoId, 0, 60);
      expect(last.json()).toMatchObject({ completed: true });
      record = await recordOf(learner.id, videoId);
      expect(record!.observedSeconds).toBeGreaterThanOrEqual(57);
      expect(record!.firstBeatAt).not.toBeNull();
    });

    it('accepts the submission only once every part is completed, and records it', async () => {
      const { course, set, videos } = await readyTraining([10]);
      const learner = await approvedLearnerIn(course.id);
      const submit = () =>
        portal.app.inject({ method: 'POST', url: `/api/videoWatchedUser/${set.id}`, headers: { authorization: portal.authorization(learner) } });

      const early = await submit();
      expect(early.statusCode).toBe(400);
      expect(early.json().message).toBe(T.notComplete);

      await as(learner).training.heartbeat({ videoId: videos[0]!.id, from: 0, to: 0, position: 0 });
      await letTimePass(learner.id, videos[0]!.id, 10);
      await as(learner).training.heartbeat({ videoId: videos[0]!.id, from: 0, to: 10, position: 10 });
      const done = await submit();
      expect(done.statusCode).toBe(200);
      expect(done.json().message).toBe(T.submitted);
      const [enrolment] = await portal.runtime.db.select().from(enrolments).where(eq(enrolments.userId, learner.id));
      expect(enrolment!.trainingSubmittedAt).not.toBeNull();
      expect((await as(learner).training.player({ courseId: course.id })).submittedAt).toBe(enrolment!.trainingSubmittedAt!.toISOString());
    });

    it('is closed to a learner without an approved enrolment', async () => {
      const { course, set, videos } = await readyTraining([10]);
      const outsider = await createUser(portal.runtime.db, { approvedAt: new Date() });
      await expect(as(outsider).training.player({ courseId: course.id })).rejects.toMatchObject({ message: T.notEnrolled });
      await expect(as(outsider).training.heartbeat({ videoId: videos[0]!.id, from: 0, to: 5, position: 5 })).rejects.toMatchObject({ message: T.notEnrolled });
      const rest = await portal.app.inject({ url: `/api/trainingVideo/${course.id}`, headers: { authorization: portal.authorization(outsider) } });
      expect(rest.statusCode).toBe(403);
      const reported = await report(portal.authorization(outsider), videos[0]!.id, 0, 5);
      expect(reported.statusCode).toBe(403);
      const submit = await portal.app.inject({ method: 'POST', url: `/api/videoWatchedUser/${set.id}`, headers: { authorization: portal.authorization(outsider) } });
      expect(submit.statusCode).toBe(403);
      expect(await portal.runtime.db.select().from(watchProgress).where(eq(watchProgress.userId, outsider.id))).toEqual([]);
    });
  });

  describe('streams', () => {
    async function preparedCourse() {
      const course = await createCourse(portal.runtime.db);
      await upload(admin, videoParts(course.id, 'Streams', [[clipA, 'one.mp4'], [clipA, 'two.mp4']]));
      await portal.drainJobs();
      return course;
    }

    /** The learner's training as the spec's client fetches it: the links, and the pass the answer set. */
    async function openTraining(authorization: string, courseId: string) {
      const list = await portal.app.inject({ url: `/api/trainingVideo/${courseId}`, headers: { authorization } });
      expect(list.statusCode, list.body).toBe(200);
      const parts = list.json().data.trainingVideo as Array<{ _id: string; serial: number; url: string | null }>;
      return { parts, pass: passOf(list) };
    }

    const stream = (url: string, cookie?: string, range = 'bytes=0-9') =>
      portal.app.inject({ url, headers: { range, ...(cookie ? { cookie } : {}) } });

    it('serves an unlocked part to its learner with Range, and only with the learner\'s own pass', async () => {
      const course = await preparedCourse();
      const learner = await approvedLearnerIn(course.id);
      const { authorization } = await signIn(learner);
      const { parts, pass } = await openTraining(authorization, course.id);
      expect(parts.map((part) => [part.serial, part.url === null])).toEqual([
        [1, false],
        [2, true],
      ]);
      const url = parts[0]!.url!;
      expect(url).not.toContain('expires=');

      const whole = await portal.app.inject({ url, headers: { cookie: pass } });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      const ranged = await stream(url, pass, 'bytes=100-199');
      expect(ranged.statusCode).toBe(206);
      expect(ranged.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));

      // The link copied to curl, or to another browser: no pass, nothing.
      const bare = await portal.app.inject({ url });
      expect(bare.statusCode).toBe(403);
      expect(bare.json().message).toBe(T.streamRefused);
      expect((await stream(url)).statusCode).toBe(403);

      // Another learner, not enrolled here, with a pass of their own from a course they are enrolled in.
      const otherCourse = await preparedCourse();
      const stranger = await approvedLearnerIn(otherCourse.id);
      const strangers = await openTraining((await signIn(stranger, '127.0.0.2')).authorization, otherCourse.id);
      expect((await stream(url, strangers.pass)).statusCode).toBe(403);
      // ... or the viewer in the link swapped for theirs.
      const forged = url.replace(`viewer=${learner.id}`, `viewer=${stranger.id}`);
      expect((await stream(forged, strangers.pass)).statusCode).toBe(403);

      // Another session of the same learner (another device) has its own links.
      const second = await openTraining((await signIn(learner, '127.0.0.3')).authorization, course.id);
      expect((await stream(url, second.pass)).statusCode).toBe(403);
      expect((await stream(second.parts[0]!.url!, second.pass)).statusCode).toBe(206);
    });

    it('stops a link when its session ends or its pass is not renewed, and every report renews it', async () => {
      const course = await preparedCourse();
      const learner = await approvedLearnerIn(course.id);
      const session = await signIn(learner);
      const { parts, pass } = await openTraining(session.authorization, course.id);
      const url = parts[0]!.url!;
      expect((await stream(url, pass)).statusCode).toBe(206);

      // A report renews the pass.
      const reported = await report(session.authorization, parts[0]!._id, 0, 0);
      expect(reported.statusCode).toBe(200);
      expect((await stream(url, passOf(reported))).statusCode).toBe(206);

      // A pass past its minutes, even a genuine one, is refused.
      const viewer = { id: learner.id, email: learner.email, name: 'x', role: 'learner' as const, staffRole: null, verified: true, approved: true, sessionId: '', secondFactor: null };
      const claims = JSON.parse(Buffer.from(session.authorization.split('.')[1]!, 'base64url').toString()) as { sid: string };
      viewer.sessionId = claims.sid;
      const staleCookie = streamPassCookie(portal.runtime, viewer, new Date(Date.now() - (STREAM_PASS_TTL_SECONDS + 60) * 1000))!;
      const stale = `${staleCookie.name}=${staleCookie.value}`;
      const expired = await stream(url, stale);
      expect(expired.statusCode).toBe(403);
      expect(expired.json().message).toBe(MESSAGES.files.linkExpired);

      // Logout ends the session, and with it the link and the pass.
      const logout = await portal.app.inject({ method: 'POST', url: '/api/user/logout', payload: { refreshToken: session.refreshToken } });
      expect(logout.statusCode).toBe(200);
      const after = await stream(url, pass);
      expect(after.statusCode).toBe(403);
      expect(after.json().message).toBe(T.streamRefused);
    });

    it('stops a link at once when the part becomes locked or the enrolment ends', async () => {
      const course = await preparedCourse();
      const learner = await approvedLearnerIn(course.id);
      const { authorization } = await signIn(learner);
      const { parts, pass } = await openTraining(authorization, course.id);
      const url = parts[0]!.url!;
      expect((await stream(url, pass)).statusCode).toBe(206);
      const player = await as(learner).training.player({ courseId: course.id });

      // The administrator puts another part first: this one is now part 2, locked.
      await as(admin).training.reorder({ setId: player.setId, videoIds: [player.videos[1]!.id, player.videos[0]!.id] });
      const locked = await stream(url, pass);
      expect(locked.statusCode).toBe(403);
      expect(locked.json().message).toBe(T.locked);

      await as(admin).training.reorder({ setId: player.setId, videoIds: [player.videos[0]!.id, player.videos[1]!.id] });
      // The administrator rejects the enrolment.
      const [enrolment] = await portal.runtime.db.select().from(enrolments).where(eq(enrolments.userId, learner.id));
      await as(admin).enrolments.reject({ enrolmentId: enrolment!.id });
      const ended = await stream(url, pass);
      expect(ended.statusCode).toBe(403);
      expect(ended.json().message).toBe(T.notEnrolled);
    });
  });

  // Needs TEST_REDIS_URL; without it (a fresh machine's `npm test`) the in-process runs above stand.
  describe.runIf(inject('redisUrl'))('on Redis, with a worker', () => {
    it('transcodes through BullMQ the same way', async () => {
      const queued = await createTestPortal({ redis: true, storage: driver });
      try {
        const admin2 = await createUser(queued.runtime.db, { role: 'admin' });
        const course = await createCourse(queued.runtime.db);
        const body = form(videoParts(course.id, 'Queued', [[clipA, 'queued.mp4']]));
        const res = await queued.app.inject({
          method: 'POST',
          url: '/api/trainingVideo',
          headers: { ...body.headers, authorization: queued.authorization(admin2) },
          payload: body.payload,
        });
        expect(res.statusCode, res.body).toBe(201);
        const status = async () =>
          (
            await queued.runtime.db
              .select({ status: trainingVideos.status })
              .from(trainingVideos)
              .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
              .where(eq(trainingVideoSets.courseId, course.id))
          )[0]?.status;
        await expect.poll(status, { timeout: 30_000 }).toMatch(/^(ready|failed)$/);
        expect(await status()).toBe('ready');
      } finally {
        await queued.close();
      }
    }, 60_000);
  });
});

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from '../../../testing/factories.ts';
import { makeClip } from '../../../testing/media.ts';
import { form, PNG, type TFormPart } from '../../../testing/multipart.ts';
import { STORAGE_DRIVERS, storedNames as namesIn } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { enrolments, jobOutbox, trainingVideos, trainingVideoSets, watchProgress } from '../../db/schema.ts';

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

  /**
   * A course whose training has `durations.length` ready parts (rows only, no media), for the rules
   * about heartbeats, locks and submission.
   */
  async function readyTraining(durations: number[]) {
    const { db } = portal.runtime;
    const course = await createCourse(db);
    const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: `Training ${course.title}` }).returning();
    const videos = await db
      .insert(trainingVideos)
      .values(
        durations.map((durationSeconds, index) => ({
          setId: set!.id,
          serial: index + 1,
          originalName: `Part ${index + 1}`,
          sourceFile: `00000000-0000-4000-8000-00000000000${index}.mp4`,
          status: 'ready' as const,
          durationSeconds,
          renditions: [{ height: 360, file: `00000000-0000-4000-8000-10000000000${index}.mp4`, bitrateKbps: 500 }],
        })),
      )
      .returning();
    return { course, set: set!, videos };
  }

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
      const sets = await as(admin).training.sets();
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
      const outbox = await portal.runtime.db.select().from(jobOutbox).where(eq(jobOutbox.name, 'transcode-video'));
      expect(outbox.every((row) => row.status === 'done')).toBe(true);
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
      let partial: string[] = [];
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/trainingVideo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${portal.authorization(admin)}\r\n` +
              `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 50 * 1024 * 1024}\r\n\r\n`,
          );
          socket.write(head);
          socket.write(clipA);
          // A part of the file arrives, then the link drops.
          setTimeout(() => {
            void storedNames().then((names) => {
              partial = names.filter((name) => name.endsWith('.part'));
              socket.destroy();
              resolve();
            });
          }, 300);
        });
      });
      // On disk the file being received is there under a temporary name; a bucket shows nothing
      // before the upload completes.
      expect(partial).toHaveLength(driver === 'local' ? 1 : 0);
      // The server notices the closed connection and cleans up.
      for (let i = 0; i < 50 && (await storedNames()).length !== before.length; i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await storedNames())).toEqual(before);
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

  // Rows only, no files: once is enough.
  describe.runIf(driver === 'local')('the learner\'s progress', () => {
    it('locks part 2 until part 1 is watched, counting only real watching', async () => {
      const { course, set, videos } = await readyTraining([100, 100]);
      const learner = await approvedLearnerIn(course.id);
      const me = as(learner);
      const [one, two] = videos as [(typeof videos)[0], (typeof videos)[0]];

      const player = await me.training.player({ courseId: course.id });
      expect(player.videos.map((video) => [video.locked, video.completed, video.sources.length > 0])).toEqual([
        [false, false, true],
        [true, false, false],
      ]);
      expect(player).toMatchObject({ setId: set.id, currentIndex: 0, allCompleted: false, progress: { percent: 0 } });

      // Part 2 refuses progress while locked, and nothing is written.
      await expect(me.training.heartbeat({ videoId: two.id, from: 0, to: 10, position: 10 })).rejects.toMatchObject({ message: T.locked });
      // The first report covers at most one heartbeat period: claiming a minute at once is refused.
      await expect(me.training.heartbeat({ videoId: one.id, from: 0, to: 60, position: 60 })).rejects.toMatchObject({ message: T.tooFast });
      expect(await portal.runtime.db.select().from(watchProgress).where(eq(watchProgress.userId, learner.id))).toEqual([]);

      // Skipping to the end completes nothing.
      const skipped = await me.training.heartbeat({ videoId: one.id, from: 90, to: 100, position: 100 });
      expect(skipped).toMatchObject({ completed: false, watchedSeconds: 10 });

      // Real watching, ten seconds at a time: the same seconds twice count once; 95 % completes.
      let last = skipped;
      for (let start = 0; start < 90; start += 10) {
        await letTimePass(learner.id, one.id, 10);
        last = await me.training.heartbeat({ videoId: one.id, from: start, to: start + 10, position: start + 10 });
        if (start === 80) expect(last.completed).toBe(true);
        else expect(last.completed).toBe(false);
      }
      expect(last).toMatchObject({ watchedSeconds: 100, progress: { completedVideos: 1, totalVideos: 2, percent: 50 }, allCompleted: false });

      // Faster than real time after the first report: 30 s of video in a moment.
      await expect(me.training.heartbeat({ videoId: two.id, from: 0, to: 10, position: 10 })).resolves.toMatchObject({ completed: false });
      await expect(me.training.heartbeat({ videoId: two.id, from: 10, to: 40, position: 40 })).rejects.toMatchObject({ message: T.tooFast });

      const resumed = await me.training.player({ courseId: course.id });
      expect(resumed.videos[1]).toMatchObject({ locked: false, completed: false, resumeAt: 10, watchedSeconds: 10 });
      expect(resumed.currentIndex).toBe(1);
    });

    it('accepts the submission only once every part is completed, and records it', async () => {
      const { course, set, videos } = await readyTraining([10]);
      const learner = await approvedLearnerIn(course.id);
      const submit = () =>
        portal.app.inject({ method: 'POST', url: `/api/videoWatchedUser/${set.id}`, headers: { authorization: portal.authorization(learner) } });

      const early = await submit();
      expect(early.statusCode).toBe(400);
      expect(early.json().message).toBe(T.notComplete);

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

    it('serves an unlocked part to its learner with Range, and the spec\'s list names it', async () => {
      const course = await preparedCourse();
      const learner = await approvedLearnerIn(course.id);
      const list = await portal.app.inject({ url: `/api/trainingVideo/${course.id}`, headers: { authorization: portal.authorization(learner) } });
      expect(list.statusCode).toBe(200);
      const parts = list.json().data.trainingVideo as Array<{ _id: string; serial: number; url: string | null }>;
      expect(parts.map((part) => [part.serial, part.url === null])).toEqual([
        [1, false],
        [2, true],
      ]);

      const whole = await portal.app.inject({ url: parts[0]!.url! });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      const ranged = await portal.app.inject({ url: parts[0]!.url!, headers: { range: 'bytes=100-199' } });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));

      // Someone else's link: the viewer named in it is part of the signature.
      const other = await approvedLearnerIn(course.id);
      const forged = parts[0]!.url!.replace(`viewer=${learner.id}`, `viewer=${other.id}`);
      expect((await portal.app.inject({ url: forged })).statusCode).toBe(404);
    });

    it('stops a link at once when the part becomes locked or the enrolment ends', async () => {
      const course = await preparedCourse();
      const learner = await approvedLearnerIn(course.id);
      const player = await as(learner).training.player({ courseId: course.id });
      const url = player.videos[0]!.sources[0]!.url;
      expect((await portal.app.inject({ url, headers: { range: 'bytes=0-9' } })).statusCode).toBe(206);

      // The administrator puts another part first: this one is now part 2, locked.
      await as(admin).training.reorder({ setId: player.setId, videoIds: [player.videos[1]!.id, player.videos[0]!.id] });
      const locked = await portal.app.inject({ url, headers: { range: 'bytes=0-9' } });
      expect(locked.statusCode).toBe(403);
      expect(locked.json().message).toBe(T.locked);

      await as(admin).training.reorder({ setId: player.setId, videoIds: [player.videos[0]!.id, player.videos[1]!.id] });
      await portal.runtime.db.update(enrolments).set({ status: 'rejected' }).where(eq(enrolments.userId, learner.id));
      const ended = await portal.app.inject({ url, headers: { range: 'bytes=0-9' } });
      expect(ended.statusCode).toBe(403);
      expect(ended.json().message).toBe(T.notEnrolled);
    });
  });

  describe('on Redis, with a worker', () => {
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
        const deadline = Date.now() + 30_000;
        let status = 'pending';
        while (Date.now() < deadline && status !== 'ready' && status !== 'failed') {
          await new Promise((resolve) => setTimeout(resolve, 250));
          [{ status }] = (await queued.runtime.db.select({ status: trainingVideos.status }).from(trainingVideos)) as [{ status: string }];
        }
        expect(status).toBe('ready');
      } finally {
        await queued.close();
      }
    }, 60_000);
  });
});

import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { offlineRecordText } from '../../../shared/offline-record.ts';
import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import { createCourse, createEnrolment, createReadyTraining, createUser, sessionOf, TEST_PASSWORD } from '../../../testing/factories.ts';
import { makeClip } from '../../../testing/media.ts';
import { form } from '../../../testing/multipart.ts';
import { enrolments, offlineDownloads, offlinePartFetches, offlineWatchRecords, trainingVideos, watchProgress, watchRefusals } from '../../db/schema.ts';
import { OFFLINE_REFUSALS } from './offline-credit.ts';
import { STREAM_PASS_COOKIE } from './stream-pass.ts';
import { watchEvidence } from './training.service.ts';
import { restSignIn } from '../../../testing/second-factor.ts';
import { describe, expect, test, type TTestUser } from '../../../testing/portal-test.ts';

const T = MESSAGES.training;
type TUser = TTestUser;

/** The stream pass a response set, as the browser sends it back (`name=value`). */
function passOf(res: { headers: Record<string, unknown> }): string {
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  const pass = cookies.find((cookie) => cookie.startsWith(`${STREAM_PASS_COOKIE}=`));
  expect(pass, 'a stream pass cookie').toBeDefined();
  return pass!.split(';')[0]!;
}

type TRecordFields = { videoId: string; from: number; to: number; startedAt: number; endedAt: number; playedMs: number };

/** The device's side: records numbered, chained and signed with the download's key, exactly as documented. */
function device(download: { downloadId: string; recordKey: string }) {
  let seq = 0;
  let prev: string | null = null;
  return {
    record(fields: TRecordFields, sign: { key?: string; downloadId?: string } = {}) {
      const unsigned = { id: randomUUID(), seq: (seq += 1), ...fields, prev };
      const signature = createHmac('sha256', sign.key ?? download.recordKey)
        .update(offlineRecordText(sign.downloadId ?? download.downloadId, unsigned))
        .digest('base64url');
      prev = signature;
      return { ...unsigned, signature };
    },
  };
}

/** A span played honestly `endedSecondsAgo` before now: device times and played time agree with the span. */
const played = (videoId: string, from: number, to: number, endedSecondsAgo: number): TRecordFields => {
  const endedAt = Date.now() - endedSecondsAgo * 1000;
  return { videoId, from, to, startedAt: endedAt - (to - from) * 1000, endedAt, playedMs: Math.round((to - from) * 1000) };
};

const it = test
  /** A short clip with sound, made once for the file. */
  // eslint-disable-next-line no-empty-pattern -- Vitest reads what a fixture needs from its first parameter's pattern
  .extend('clip', { scope: 'file' }, async ({}, { onCleanup }) => {
    const clipDir = mkdtempSync(path.join(tmpdir(), 'offline-clips-'));
    onCleanup(() => rmSync(clipDir, { recursive: true, force: true }));
    return readFileSync(await makeClip(clipDir, 'a.mp4', { width: 320, height: 240, seconds: 2, audio: true }));
  })
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin' }))
  .extend('approvedLearnerIn', { scope: 'file' }, ({ db }) => async (courseId: string) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    await createEnrolment(db, { userId: learner.id, courseId, status: 'approved', decidedAt: new Date() });
    return learner;
  })
  /** Signs in through the spec's login, as a client would: a bearer header from a real session. */
  .extend('signIn', { scope: 'file' }, ({ portal }) => async (user: TUser, ip = '127.0.0.1') => {
    const res = await restSignIn(portal.app, user.email, TEST_PASSWORD, ip);
    expect(res.statusCode, res.body).toBe(200);
    const { accessToken, refreshToken } = res.json() as { accessToken: string; refreshToken: string };
    return { authorization: `Bearer ${accessToken}`, refreshToken };
  })
  /** A tRPC call over HTTP, as the app makes it: the answer's data and the pass it set. */
  .extend('trpc', { scope: 'file' }, ({ portal }) => async <T>(authorization: string, procedure: string, input: unknown, kind: 'query' | 'mutation') => {
    const res =
      kind === 'query'
        ? await portal.app.inject({ url: `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, headers: { authorization } })
        : await portal.app.inject({ method: 'POST', url: `/trpc/${procedure}`, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(input) });
    return { res, data: res.statusCode === 200 ? (res.json().result.data as T) : undefined, message: res.statusCode === 200 ? undefined : (res.json().error.message as string) };
  })
  /** A course with two parts uploaded and transcoded as an administrator does (2 s clips, 240 lines). */
  .extend('preparedCourse', { scope: 'file' }, ({ db, portal, admin, clip }) => async () => {
    const course = await createCourse(db);
    const body = form([
      { name: 'courseId', value: course.id },
      { name: 'title', value: 'Offline' },
      { name: 'trainingVideo', file: clip, filename: 'one.mp4', type: 'video/mp4' },
      { name: 'trainingVideo', file: clip, filename: 'two.mp4', type: 'video/mp4' },
    ]);
    const res = await portal.app.inject({ method: 'POST', url: '/api/trainingVideo', headers: { ...body.headers, authorization: portal.authorization(admin) }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    await portal.drainJobs();
    return course;
  })
  /** A course whose parts are ready rows of the given lengths (no media): for the credit rules. */
  .extend('readyTraining', { scope: 'file' }, ({ db }) => (durations: number[]) => createReadyTraining(db, durations))
  /** The sync as a device's background sync sends it: no bearer token, the documented body only. */
  .extend('sync', { scope: 'file' }, ({ portal }) => (downloadId: string, records: unknown[]) =>
    portal.app.inject({ method: 'POST', url: '/api/trainingVideo/offline/sync', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ downloadId, records }) }))
  /** A download of a rows-only course, its parts fetched `secondsAgo` before now. */
  .extend('downloadOf', { scope: 'file' }, ({ db, portal }) => async (learner: TUser, courseId: string, videoIds: string[], secondsAgo: number) => {
    const pack = await portal.caller(sessionOf(learner)).training.offlinePackage({ courseId, height: 360 });
    if (videoIds.length > 0) {
      await db
        .insert(offlinePartFetches)
        .values(videoIds.map((videoId) => ({ downloadId: pack.downloadId, videoId, fetchedAt: new Date(Date.now() - secondsAgo * 1000) })));
    }
    return pack;
  })
  .extend('watchOf', { scope: 'file' }, ({ db }) => async (userId: string, videoId: string) =>
    (await db.select().from(watchProgress).where(and(eq(watchProgress.userId, userId), eq(watchProgress.videoId, videoId))))[0])
  .extend('refusalsOf', { scope: 'file' }, ({ db }) => (userId: string) => db.select().from(watchRefusals).where(eq(watchRefusals.userId, userId)).orderBy(asc(watchRefusals.createdAt)))
  .extend('storedRecords', { scope: 'file' }, ({ db }) => (downloadId: string) =>
    db.select().from(offlineWatchRecords).where(eq(offlineWatchRecords.downloadId, downloadId)).orderBy(asc(offlineWatchRecords.seq)))
  .extend('fetchPart', { scope: 'file' }, ({ portal }) => (url: string, cookie?: string, range = 'bytes=0-99') => portal.app.inject({ url, headers: { range, ...(cookie ? { cookie } : {}) } }));

describe('the offline package', () => {
  it('gives an enrolled learner every ready part, locked ones too, with its size and a media link, and a new download each time', async ({ approvedLearnerIn, db, portal, preparedCourse, signIn, trpc }) => {
    const course = await preparedCourse();
    const learner = await approvedLearnerIn(course.id);
    const { authorization } = await signIn(learner);
    const { res, data: pack } = await trpc<TOfflinePackage>(authorization, 'training.offlinePackage', { courseId: course.id }, 'mutation');
    expect(res.statusCode, res.body).toBe(200);
    passOf(res);
    expect(pack!.height).toBe(360);
    expect(pack!.recordKey.length).toBeGreaterThanOrEqual(40);
    expect(pack!.parts.map((part) => [part.serial, part.completed, part.watchedSeconds])).toEqual([
      [1, false, 0],
      [2, false, 0],
    ]);
    const videos = await db.select().from(trainingVideos).orderBy(asc(trainingVideos.serial)).where(eq(trainingVideos.setId, pack!.setId));
    for (const [index, part] of pack!.parts.entries()) {
      // The 360p download of a 240-line source: its one rendition, the nearest there is.
      const info = await portal.runtime.files.stat('trainingVideo', videos[index]!.renditions[0]!.file);
      expect(part.bytes).toBe(info!.bytes);
      expect(part.url).toMatch(new RegExp(`^/api/trainingVideo/stream/offline/${pack!.downloadId}/${part.id}\\?signature=[A-Za-z0-9_-]+$`));
      expect(part.posterUrl).toMatch(/^\/api\/files\/trainingVideo\//);
      expect(part.durationSeconds).toBeGreaterThan(1.5);
    }
    expect(pack!.totalBytes).toBe(pack!.parts[0]!.bytes + pack!.parts[1]!.bytes);

    const again = await trpc<TOfflinePackage>(authorization, 'training.offlinePackage', { courseId: course.id, height: 720 }, 'mutation');
    expect(again.data!.downloadId).not.toBe(pack!.downloadId);
    expect(again.data!.recordKey).not.toBe(pack!.recordKey);
    expect(again.data!.height).toBe(720);

    // Resuming gives the same download and key, with links for the session that asks.
    const second = await signIn(learner, '127.0.0.9');
    const resumed = await trpc<TOfflinePackage>(second.authorization, 'training.offlineResume', { downloadId: pack!.downloadId }, 'query');
    expect(resumed.data).toMatchObject({ downloadId: pack!.downloadId, recordKey: pack!.recordKey, totalBytes: pack!.totalBytes });
    expect(resumed.data!.parts[0]!.url).not.toBe(pack!.parts[0]!.url);
  });

  it('is refused to anyone without an approved enrolment, administrators included, and makes no download', async ({ admin, db, portal, preparedCourse }) => {
    const course = await preparedCourse();
    const outsider = await createUser(db, { approvedAt: new Date() });
    await expect(portal.caller(sessionOf(outsider)).training.offlinePackage({ courseId: course.id, height: 360 })).rejects.toMatchObject({ message: T.notEnrolled });
    await expect(portal.caller(sessionOf(admin)).training.offlinePackage({ courseId: course.id, height: 360 })).rejects.toMatchObject({ message: T.notEnrolled });
    expect(await db.select().from(offlineDownloads).where(eq(offlineDownloads.courseId, course.id))).toEqual([]);
  });

  it('says which downloads still work, and another learner\'s is neither resumed nor listed', async ({ approvedLearnerIn, db, downloadOf, portal, readyTraining }) => {
    const { course } = await readyTraining([60]);
    const learner = await approvedLearnerIn(course.id);
    const other = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [], 0);
    const me = portal.caller(sessionOf(learner));
    expect(await me.training.offlineStatus({ downloadIds: [pack.downloadId, randomUUID()] })).toEqual({ active: [pack.downloadId] });
    expect(await portal.caller(sessionOf(other)).training.offlineStatus({ downloadIds: [pack.downloadId] })).toEqual({ active: [] });
    await expect(portal.caller(sessionOf(other)).training.offlineResume({ downloadId: pack.downloadId })).rejects.toMatchObject({ message: T.offlineNotFound });

    await db.update(enrolments).set({ status: 'rejected' }).where(eq(enrolments.userId, learner.id));
    expect(await me.training.offlineStatus({ downloadIds: [pack.downloadId] })).toEqual({ active: [] });
    await expect(me.training.offlineResume({ downloadId: pack.downloadId })).rejects.toMatchObject({ message: T.offlineEnded });
  });
});

describe('a downloaded part\'s media', () => {

  it('is served in Range requests with the downloader\'s pass, locked parts too, and records the first fetch once', async ({ approvedLearnerIn, db, fetchPart, portal, preparedCourse, signIn, trpc }) => {
    const course = await preparedCourse();
    const learner = await approvedLearnerIn(course.id);
    const { authorization } = await signIn(learner);
    const { res, data: pack } = await trpc<TOfflinePackage>(authorization, 'training.offlinePackage', { courseId: course.id }, 'mutation');
    const pass = passOf(res);
    const [one, two] = pack!.parts as [TOfflinePackage['parts'][0], TOfflinePackage['parts'][0]];

    const whole = await portal.app.inject({ url: one.url, headers: { cookie: pass } });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.length).toBe(one.bytes);
    expect(whole.headers['cache-control']).toBe('private, no-store');
    const ranged = await fetchPart(one.url, pass, 'bytes=100-199');
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${one.bytes}`);
    expect(ranged.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    // Part 2 is locked online; the device keeps it and applies the lock itself.
    expect((await fetchPart(two.url, pass)).statusCode).toBe(206);

    const fetches = await db.select().from(offlinePartFetches).where(eq(offlinePartFetches.downloadId, pack!.downloadId));
    expect(fetches.map((row) => row.videoId).sort()).toEqual([one.id, two.id].sort());
    const firstAt = fetches.find((row) => row.videoId === one.id)!.fetchedAt;
    expect((await fetchPart(one.url, pass, 'bytes=200-299')).statusCode).toBe(206);
    const later = await db.select().from(offlinePartFetches).where(eq(offlinePartFetches.downloadId, pack!.downloadId));
    expect(later).toHaveLength(2);
    expect(later.find((row) => row.videoId === one.id)!.fetchedAt).toEqual(firstAt);
  });

  it('answers 403 without the pass, with another learner\'s or another session\'s, after logout and once the enrolment ends', async ({ admin, approvedLearnerIn, db, fetchPart, portal, preparedCourse, signIn, trpc }) => {
    const course = await preparedCourse();
    const learner = await approvedLearnerIn(course.id);
    const session = await signIn(learner);
    const { res, data: pack } = await trpc<TOfflinePackage>(session.authorization, 'training.offlinePackage', { courseId: course.id }, 'mutation');
    const pass = passOf(res);
    const url = pack!.parts[0]!.url;
    expect((await fetchPart(url, pass)).statusCode).toBe(206);

    const bare = await fetchPart(url);
    expect(bare.statusCode).toBe(403);
    expect(bare.json().message).toBe(T.offlineLinkRefused);

    // Another learner of the same course, with a pass and a download of their own.
    const other = await approvedLearnerIn(course.id);
    const others = await trpc<TOfflinePackage>((await signIn(other, '127.0.0.2')).authorization, 'training.offlinePackage', { courseId: course.id }, 'mutation');
    const otherPass = passOf(others.res);
    expect((await fetchPart(url, otherPass)).statusCode).toBe(403);
    expect((await fetchPart(others.data!.parts[0]!.url, otherPass)).statusCode).toBe(206);
    // The link's download swapped for the other learner's: the signature no longer matches.
    expect((await fetchPart(url.replace(pack!.downloadId, others.data!.downloadId), otherPass)).statusCode).toBe(403);
    // The same learner's other session has links of its own.
    const second = await trpc<{ active: string[] }>((await signIn(learner, '127.0.0.3')).authorization, 'training.offlineStatus', { downloadIds: [pack!.downloadId] }, 'query');
    expect(second.data).toEqual({ active: [pack!.downloadId] });
    expect((await fetchPart(url, passOf(second.res))).statusCode).toBe(403);

    // The administrator rejects the enrolment: the very next request is refused.
    const [enrolment] = await db.select().from(enrolments).where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, course.id)));
    await portal.caller(sessionOf(admin)).enrolments.reject({ enrolmentId: enrolment!.id });
    const ended = await fetchPart(url, pass);
    expect(ended.statusCode).toBe(403);
    expect(ended.json().message).toBe(T.offlineEnded);
    await portal.caller(sessionOf(admin)).enrolments.accept({ enrolmentId: enrolment!.id });
    expect((await fetchPart(url, pass)).statusCode).toBe(206);

    // Logout ends the session, and with it the pass.
    expect((await portal.app.inject({ method: 'POST', url: '/api/user/logout', payload: { refreshToken: session.refreshToken } })).statusCode).toBe(200);
    const after = await fetchPart(url, pass);
    expect(after.statusCode).toBe(403);
    expect(after.json().message).toBe(T.offlineLinkRefused);
  });
});

describe('the sync of offline watching', () => {
  it('credits honest records: parts complete and the next unlocks; the online clock gains nothing from it', async ({ approvedLearnerIn, downloadOf, portal, readyTraining, refusalsOf, storedRecords, sync, watchOf }) => {
    const { course, set, videos } = await readyTraining([60, 60]);
    const [one, two] = videos as [(typeof videos)[0], (typeof videos)[0]];
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [one.id, two.id], 600);
    const d = device(pack);
    const res = await sync(pack.downloadId, [d.record(played(one.id, 0, 60, 300)), d.record(played(two.id, 0, 30, 200))]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      results: [expect.objectContaining({ outcome: 'credited', creditedSeconds: 60, reason: null }), expect.objectContaining({ outcome: 'credited', creditedSeconds: 30, reason: null })],
      parts: [
        { videoId: one.id, watchedSeconds: 60, completed: true },
        { videoId: two.id, watchedSeconds: 30, completed: false },
      ],
      progress: { completedVideos: 1, totalVideos: 2, percent: 50 },
      allCompleted: false,
    });
    const player = await portal.caller(sessionOf(learner)).training.player({ courseId: course.id });
    expect(player.videos.map((video) => [video.locked, video.completed, video.resumeAt])).toEqual([
      [false, true, 0],
      [false, false, 30],
    ]);
    const watch = await watchOf(learner.id, two.id);
    expect(watch).toMatchObject({ observedSeconds: 30, lastBeatAt: null });
    expect(watch!.firstBeatAt).not.toBeNull();
    expect(await refusalsOf(learner.id)).toEqual([]);
    expect((await storedRecords(pack.downloadId)).map((row) => [row.seq, row.outcome, row.creditedSeconds])).toEqual([
      [1, 'credited', 60],
      [2, 'credited', 30],
    ]);

    // An online span straight after the sync earns only the clock's slack: the offline time was counted once.
    const online = await portal.caller(sessionOf(learner)).training.heartbeat({ videoId: two.id, from: 30, to: 40, position: 40 });
    expect(online.watchedSeconds).toBe(32);

    // The rest of part 2 offline, and the training can be submitted.
    const rest = await sync(pack.downloadId, [d.record(played(two.id, 30, 60, 100))]);
    expect(rest.json()).toMatchObject({ allCompleted: true, progress: { percent: 100 } });
    const submitted = await portal.caller(sessionOf(learner)).training.submit({ setId: set.id });
    expect(submitted.message).toBe(T.submitted);
  });

  it('answers a batch sent again as duplicates with what it was credited, and changes nothing', async ({ approvedLearnerIn, db, downloadOf, readyTraining, storedRecords, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60]);
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videos[0]!.id], 600);
    const d = device(pack);
    const batch = [d.record(played(videos[0]!.id, 0, 20, 300)), d.record(played(videos[0]!.id, 20, 40, 200))];
    expect((await sync(pack.downloadId, batch)).statusCode).toBe(200);
    const before = { watch: await watchOf(learner.id, videos[0]!.id), records: await storedRecords(pack.downloadId), download: await db.select().from(offlineDownloads).where(eq(offlineDownloads.id, pack.downloadId)) };
    const again = await sync(pack.downloadId, batch);
    expect(again.json().results.map((result: { outcome: string; creditedSeconds: number }) => [result.outcome, result.creditedSeconds])).toEqual([
      ['duplicate', 20],
      ['duplicate', 20],
    ]);
    expect(await watchOf(learner.id, videos[0]!.id)).toEqual(before.watch);
    expect(await storedRecords(pack.downloadId)).toEqual(before.records);
    expect(await db.select().from(offlineDownloads).where(eq(offlineDownloads.id, pack.downloadId))).toEqual(before.download);
  });

  it('refuses an edited record, and one signed with another download\'s key, and keeps the reason for the auditor', async ({ approvedLearnerIn, downloadOf, readyTraining, refusalsOf, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60]);
    const videoId = videos[0]!.id;
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videoId], 600);
    const otherPack = await downloadOf(learner, course.id, [videoId], 600);
    const d = device(pack);
    const honest = d.record(played(videoId, 0, 10, 300));
    const edited = await sync(pack.downloadId, [{ ...honest, to: 60 }]);
    expect(edited.json().results).toEqual([{ id: honest.id, outcome: 'refused', reason: OFFLINE_REFUSALS.edited, creditedSeconds: 0 }]);
    const foreign = device(pack).record(played(videoId, 0, 10, 300), { key: otherPack.recordKey });
    expect((await sync(pack.downloadId, [foreign])).json().results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
    expect(await watchOf(learner.id, videoId)).toBeUndefined();
    expect((await refusalsOf(learner.id)).map((row) => [row.reason, row.claimedTo, row.creditedSeconds])).toEqual([
      [OFFLINE_REFUSALS.edited, 60, 0],
      [OFFLINE_REFUSALS.edited, 10, 0],
    ]);
    // The edited copy took the record's place: the original, sent after it, answers as it did and
    // earns nothing, and the device's next record, which names it, comes in.
    expect((await sync(pack.downloadId, [honest])).json().results[0]).toMatchObject({ outcome: 'duplicate', reason: OFFLINE_REFUSALS.edited, creditedSeconds: 0 });
    const next = d.record(played(videoId, 10, 20, 290));
    expect((await sync(pack.downloadId, [next])).json().results[0]).toMatchObject({ outcome: 'credited', creditedSeconds: 10 });
  });

  it('refuses device times in the future or out of order, keeps the reasons in the auditor\'s evidence, and goes on', async ({ approvedLearnerIn, downloadOf, portal, readyTraining, storedRecords, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60]);
    const videoId = videos[0]!.id;
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videoId], 600);
    const d = device(pack);
    const future = d.record({ videoId, from: 0, to: 10, startedAt: Date.now() + 3_600_000, endedAt: Date.now() + 3_610_000, playedMs: 10_000 });
    const first = d.record(played(videoId, 0, 10, 200));
    const backwards = d.record({ ...played(videoId, 10, 20, 250) });
    const next = d.record(played(videoId, 10, 20, 100));
    const res = await sync(pack.downloadId, [future, first, backwards, next]);
    expect(res.json().results.map((result: { outcome: string; reason: string | null }) => [result.outcome, result.reason])).toEqual([
      ['refused', OFFLINE_REFUSALS.future],
      ['credited', null],
      ['refused', OFFLINE_REFUSALS.outOfOrder],
      ['credited', null],
    ]);
    expect((await watchOf(learner.id, videoId))!.watchedSeconds).toBe(20);
    const evidence = await watchEvidence(portal.runtime, learner.id, course.id);
    expect(evidence.parts[0]).toMatchObject({ watchedSeconds: 20, lastWatchedAt: expect.any(Date), firstWatchedAt: expect.any(Date) });
    expect(evidence.parts[0]!.refusals.map((refusal) => [refusal.reason, refusal.claimedFrom, refusal.claimedTo, refusal.creditedSeconds])).toEqual([
      [OFFLINE_REFUSALS.future, 0, 10, 0],
      [OFFLINE_REFUSALS.outOfOrder, 10, 20, 0],
    ]);
    expect((await storedRecords(pack.downloadId)).map((row) => [row.seq, row.outcome, row.reason])).toEqual([
      [1, 'refused', OFFLINE_REFUSALS.future],
      [2, 'credited', null],
      [3, 'refused', OFFLINE_REFUSALS.outOfOrder],
      [4, 'credited', null],
    ]);
  });

  it('never credits more than the real time since the parts were fetched', async ({ approvedLearnerIn, db, downloadOf, readyTraining, refusalsOf, sync, watchOf }) => {
    const { course, videos } = await readyTraining([120, 120]);
    const [one, two] = videos as [(typeof videos)[0], (typeof videos)[0]];
    const learner = await approvedLearnerIn(course.id);
    // Fetched 40 s ago; the device claims two minutes of playing.
    const pack = await downloadOf(learner, course.id, [one.id, two.id], 40);
    const d = device(pack);
    const res = await sync(pack.downloadId, [d.record({ videoId: one.id, from: 0, to: 120, startedAt: Date.now() - 39_000, endedAt: Date.now(), playedMs: 120_000 })]);
    const elapsed = (Date.now() - (await db.select().from(offlinePartFetches).where(eq(offlinePartFetches.downloadId, pack.downloadId)))[0]!.fetchedAt.getTime()) / 1000;
    expect(res.json().results[0]).toMatchObject({ outcome: 'credited', reason: OFFLINE_REFUSALS.beyondRealTime });
    const watch = await watchOf(learner.id, one.id);
    expect(watch!.observedSeconds).toBeLessThanOrEqual(elapsed);
    expect(watch!.observedSeconds).toBeGreaterThanOrEqual(39);
    expect(watch!.watchedSeconds).toBeLessThanOrEqual(elapsed + 2);
    expect(watch!.completedAt).toBeNull();
    const [download] = await db.select().from(offlineDownloads).where(eq(offlineDownloads.id, pack.downloadId));
    expect(download!.creditedPlaySeconds).toBeLessThanOrEqual(elapsed);
    const [refusal] = await refusalsOf(learner.id);
    expect(refusal).toMatchObject({ reason: OFFLINE_REFUSALS.beyondRealTime, claimedFrom: 0, claimedTo: 120 });
    expect(refusal!.creditedSeconds).toBeCloseTo(watch!.watchedSeconds, 1);
  });

  it('counts overlapping records once, never credits the gaps, clips a span at the part\'s end and refuses one past it', async ({ approvedLearnerIn, downloadOf, readyTraining, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60]);
    const videoId = videos[0]!.id;
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videoId], 900);
    const d = device(pack);
    const res = await sync(pack.downloadId, [
      d.record(played(videoId, 0, 20, 800)),
      d.record(played(videoId, 10, 30, 700)),
      d.record(played(videoId, 40, 45, 600)),
      d.record(played(videoId, 50, 80, 500)),
      d.record(played(videoId, 70, 80, 400)),
    ]);
    expect(res.json().results.map((result: { outcome: string; creditedSeconds: number; reason: string | null }) => [result.outcome, result.creditedSeconds, result.reason])).toEqual([
      ['credited', 20, null],
      ['credited', 10, null],
      ['credited', 5, null],
      ['credited', 10, OFFLINE_REFUSALS.outsidePart],
      ['refused', 0, OFFLINE_REFUSALS.outsidePart],
    ]);
    const watch = await watchOf(learner.id, videoId);
    expect(watch!.watchedIntervals).toEqual([
      [0, 30],
      [40, 45],
      [50, 60],
    ]);
    expect(watch!.watchedSeconds).toBe(45);
    expect(watch!.completedAt).toBeNull();
  });

  it('takes a batch sent twice at once in once', async ({ approvedLearnerIn, downloadOf, readyTraining, storedRecords, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60]);
    const videoId = videos[0]!.id;
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videoId], 900);
    const d = device(pack);
    const batch = [d.record(played(videoId, 0, 30, 600)), d.record(played(videoId, 30, 60, 500))];
    const answers = await Promise.all([sync(pack.downloadId, batch), sync(pack.downloadId, batch)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const outcomes = answers.map((answer) => answer.json().results.map((result: { outcome: string }) => result.outcome).join(',')).sort();
    expect(outcomes).toEqual(['credited,credited', 'duplicate,duplicate']);
    for (const answer of answers) expect(answer.json().results.map((result: { creditedSeconds: number }) => result.creditedSeconds)).toEqual([30, 30]);
    const watch = await watchOf(learner.id, videoId);
    expect(watch).toMatchObject({ watchedSeconds: 60, observedSeconds: 60 });
    expect(watch!.completedAt).not.toBeNull();
    expect(await storedRecords(pack.downloadId)).toHaveLength(2);
  });

  it('takes two devices\' syncs of the same parts at once one after the other, each second credited once', async ({ approvedLearnerIn, downloadOf, readyTraining, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60, 60]);
    const [one, two] = videos as [(typeof videos)[0], (typeof videos)[0]];
    const learner = await approvedLearnerIn(course.id);
    const phone = await downloadOf(learner, course.id, [one.id, two.id], 900);
    const laptop = await downloadOf(learner, course.id, [one.id, two.id], 900);
    const [p, l] = [device(phone), device(laptop)];
    const answers = await Promise.all([
      sync(phone.downloadId, [p.record(played(one.id, 0, 40, 700)), p.record(played(one.id, 40, 60, 600))]),
      sync(laptop.downloadId, [l.record(played(one.id, 20, 60, 700)), l.record(played(two.id, 0, 10, 100))]),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const watch = await watchOf(learner.id, one.id);
    expect(watch!.watchedSeconds).toBe(60);
    // Part 1's records, whichever sync went first: its 60 seconds credited once between them.
    const [phoneResults, laptopResults] = answers.map((answer) => answer.json().results as Array<{ creditedSeconds: number }>);
    expect(phoneResults![0]!.creditedSeconds + phoneResults![1]!.creditedSeconds + laptopResults![0]!.creditedSeconds).toBe(60);
  });

  it('refuses a record before its part was fetched, and a locked part\'s', async ({ approvedLearnerIn, db, downloadOf, readyTraining, sync }) => {
    const { course, videos } = await readyTraining([60, 60]);
    const [one, two] = videos as [(typeof videos)[0], (typeof videos)[0]];
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [two.id], 600);
    const d = device(pack);
    const res = await sync(pack.downloadId, [d.record(played(one.id, 0, 10, 300)), d.record(played(two.id, 0, 10, 200))]);
    expect(res.json().results.map((result: { reason: string | null }) => result.reason)).toEqual([OFFLINE_REFUSALS.beforeDownload, OFFLINE_REFUSALS.locked]);
    expect(await db.select().from(watchProgress).where(and(eq(watchProgress.userId, learner.id), sql`${watchProgress.watchedSeconds} > 0`))).toEqual([]);
  });

  it('answers 404 for an unknown download, and 403 once the enrolment has ended, taking nothing in', async ({ approvedLearnerIn, db, downloadOf, readyTraining, storedRecords, sync, watchOf }) => {
    const { course, videos } = await readyTraining([60]);
    const videoId = videos[0]!.id;
    const learner = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videoId], 600);
    const record = device(pack).record(played(videoId, 0, 10, 300));
    const unknown = await sync(randomUUID(), [record]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(T.offlineNotFound);
    await db.update(enrolments).set({ status: 'rejected' }).where(eq(enrolments.userId, learner.id));
    const ended = await sync(pack.downloadId, [record]);
    expect(ended.statusCode).toBe(403);
    expect(ended.json().message).toBe(T.offlineEnded);
    expect(await storedRecords(pack.downloadId)).toEqual([]);
    expect(await watchOf(learner.id, videoId)).toBeUndefined();
  });

  it('is also the app\'s tRPC call, for the download\'s own learner only, and renews the stream pass', async ({ approvedLearnerIn, downloadOf, portal, readyTraining, signIn, trpc }) => {
    const { course, videos } = await readyTraining([60]);
    const videoId = videos[0]!.id;
    const learner = await approvedLearnerIn(course.id);
    const other = await approvedLearnerIn(course.id);
    const pack = await downloadOf(learner, course.id, [videoId], 600);
    const record = device(pack).record(played(videoId, 0, 10, 300));
    const theirs = await trpc(portal.authorization(other), 'training.syncOffline', { downloadId: pack.downloadId, records: [record] }, 'mutation');
    expect(theirs.res.statusCode).toBe(404);
    expect(theirs.message).toBe(T.offlineNotFound);
    const { authorization } = await signIn(learner);
    const mine = await trpc<{ results: Array<{ outcome: string }> }>(authorization, 'training.syncOffline', { downloadId: pack.downloadId, records: [record] }, 'mutation');
    expect(mine.data!.results[0]!.outcome).toBe('credited');
    passOf(mine.res);
  });

  it('is documented with exactly the fields a device sends', async ({ portal }) => {
    const docs = (await portal.app.inject('/api/docs/openapi.json')).json();
    const operation = docs.paths['/trainingVideo/offline/sync'].post;
    expect(operation['x-access']).toBe('signed link');
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(['downloadId', 'records']);
    expect(Object.keys(body.properties.records.items.properties).sort()).toEqual(['endedAt', 'from', 'id', 'playedMs', 'prev', 'seq', 'signature', 'startedAt', 'to', 'videoId']);
    expect(docs.paths['/trainingVideo/stream/offline/{downloadId}/{videoId}'].get['x-access']).toBe('signed link');
  });
});

import path from 'node:path';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TProgress } from '../../../shared/schemas/enrolment.ts';
import {
  ZTrainingUploadFields,
  type TAdminTrainingSet,
  type TAdminVideo,
  type TPlayerVideo,
  type TReorderRequest,
  type TTrainingPlayer,
  type TTrainingSubmitResult,
  type TTrainingUploadResult,
  type TVideoSource,
} from '../../../shared/schemas/training.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { VIDEO_KINDS } from '../../lib/files/file-kinds.ts';
import { fileUrl } from '../../lib/files/file-urls.ts';
import type { TUploadedForm, TUploadField } from '../../lib/files/multipart.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import { insertIntent } from '../../lib/jobs/outbox.repository.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { describeIssues } from '../../lib/validation.ts';
import { JOBS } from '../../../shared/jobs.ts';
import { findApprovedEnrolment, recordTrainingSubmitted } from '../enrolments/enrolments.service.ts';
import type { Executor } from '../../db/client.ts';
import {
  clearWatchProgressOfCourse,
  countCompleted,
  deleteVideo,
  findAllSets,
  findCourse,
  findPlayerRows,
  findSetByCourse,
  findSetById,
  findVideo,
  findVideoFileNames,
  findVideosOfSet,
  findWatchRefusals,
  inTransaction,
  insertVideos,
  lastSerial,
  lockSet,
  lockSetForCourse,
  renumber,
  updateVideo,
  type TCourseOfSet,
  type TSetRow,
  type TVideoRow,
} from './training.repository.ts';
import { streamLinkSignature, type TStreamViewer } from './stream-pass.ts';
import { revokeStreamAccess } from './stream.service.ts';
import { lockedParts } from './watched.ts';

const T = MESSAGES.training;
type Deps = Pick<AppDeps, 'db' | 'env' | 'files' | 'jobs' | 'jwtSecret' | 'logger' | 'accessGrants'>;

/** The form field that carries the video files (repeated), as the spec names it. */
export const VIDEO_FIELD = 'trainingVideo';
/** At most this many files in one upload. */
export const VIDEOS_PER_UPLOAD = 20;

function sizeText(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

/** What each video file may be: a video by its bytes, up to TRAINING_VIDEO_MAX_BYTES. */
export function trainingUploadRules(env: Pick<AppDeps['env'], 'TRAINING_VIDEO_MAX_BYTES'>): Record<typeof VIDEO_FIELD, TUploadField> {
  return {
    [VIDEO_FIELD]: {
      area: 'trainingVideo',
      kinds: VIDEO_KINDS,
      maxBytes: env.TRAINING_VIDEO_MAX_BYTES,
      multiple: true,
      tooLarge: T.videoTooLarge(sizeText(env.TRAINING_VIDEO_MAX_BYTES)),
      wrongType: T.notAVideo,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Links

/**
 * A link to one rendition for one viewer in one session. It plays only with that session's stream
 * pass (stream-pass.ts), so it needs no expiry of its own: it stops when the pass is not renewed
 * or the session ends. A caller without a session (no pass to carry) gets no links.
 */
function streamUrl(deps: Pick<AppDeps, 'jwtSecret'>, viewer: TStreamViewer, videoId: string, height: number): string {
  const signature = streamLinkSignature(deps, viewer, videoId, height);
  return `/api/trainingVideo/stream/${videoId}/${height}?viewer=${viewer.userId}&signature=${signature}`;
}

function sourcesOf(deps: Deps, viewer: TSessionUser, video: TVideoRow): TVideoSource[] {
  if (video.status !== 'ready' || !viewer.sessionId) return [];
  const streamViewer = { userId: viewer.id, sessionId: viewer.sessionId };
  return [...video.renditions]
    .sort((a, b) => b.height - a.height)
    .map((rendition) => ({ height: rendition.height, url: streamUrl(deps, streamViewer, video.id, rendition.height) }));
}

function posterUrl(deps: Deps, video: TVideoRow, now: Date): string | null {
  return video.posterFile ? fileUrl(deps, 'trainingVideo', video.posterFile, now) : null;
}

/** A part's title: the one stored, from the file's name on the administrator's computer. */
function partTitle(originalName: string | undefined, serial: number): string {
  const base = originalName ? path.parse(originalName).name.replace(/[_]+/g, ' ').trim() : '';
  return base.slice(0, 200) || `Part ${serial}`;
}

// ---------------------------------------------------------------------------------------------
// Administrators

function toAdminVideo(deps: Deps, viewer: TSessionUser, video: TVideoRow, now: Date): TAdminVideo {
  return {
    id: video.id,
    serial: video.serial,
    title: video.originalName,
    status: video.status,
    progressPercent: video.status === 'ready' ? 100 : video.progressPercent,
    error: video.error,
    durationSeconds: video.durationSeconds,
    posterUrl: posterUrl(deps, video, now),
    sources: sourcesOf(deps, viewer, video),
    uploadedAt: video.createdAt.toISOString(),
  };
}

function toAdminSet(deps: Deps, viewer: TSessionUser, set: TSetRow, course: TCourseOfSet, videos: TVideoRow[]): TAdminTrainingSet {
  const now = new Date();
  return {
    id: set.id,
    title: set.title,
    course,
    videos: videos.map((video) => toAdminVideo(deps, viewer, video, now)),
  };
}

function transcodeIntent(tx: Parameters<typeof insertIntent>[0], videoId: string, attempt: string): Promise<TJobRef> {
  const name = JOBS.transcodeVideo.name;
  return insertIntent(tx, { name, businessKey: `${videoId}:${attempt}`, payload: { videoId } }).then((id) => ({ id, name }));
}

/**
 * Adds the uploaded videos (already stored; the caller removes them when this throws) to the
 * course's training as its next parts, and queues one transcode job for each in the same
 * transaction.
 */
export async function uploadVideos(deps: Deps, admin: TSessionUser, actor: TStaffActor, form: TUploadedForm<typeof VIDEO_FIELD>): Promise<TTrainingUploadResult> {
  const parsed = ZTrainingUploadFields.safeParse(form.fields);
  const files = form.files[VIDEO_FIELD] ?? [];
  const issues: Array<{ message: string; path: ReadonlyArray<PropertyKey> }> = parsed.success ? [] : [...parsed.error.issues];
  if (files.length === 0) issues.push({ message: T.videoRequired, path: [VIDEO_FIELD] });
  if (!parsed.success || issues.length > 0) {
    const { message, fields } = describeIssues(issues);
    throw new AppError('BAD_REQUEST', message, { fields });
  }
  const course = await findCourse(deps.db, parsed.data.courseId);
  if (!course) throw new AppError('NOT_FOUND', T.courseNotFound, { fields: { courseId: T.courseNotFound } });

  const { set, jobs } = await inTransaction(deps.db, async (tx) => {
    const set = await lockSetForCourse(tx, course.id, parsed.data.title);
    const first = (await lastSerial(tx, set.id)) + 1;
    const videos = await insertVideos(
      tx,
      files.map((file, index) => ({
        setId: set.id,
        serial: first + index,
        originalName: partTitle(file.originalName, first + index),
        sourceFile: file.name,
        status: 'pending' as const,
      })),
    );
    const jobs = await Promise.all(videos.map((video) => transcodeIntent(tx, video.id, 'upload')));
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'training.upload',
      subjectType: 'training-set',
      subjectId: set.id,
      before: null,
      after: { courseId: course.id, title: set.title, videos: videos.map((video) => ({ id: video.id, serial: video.serial, title: video.originalName })) },
    });
    return { set, jobs };
  });
  await deps.jobs.dispatch(jobs);
  deps.logger.info({ adminId: admin.id, courseId: course.id, videos: files.length }, 'training videos uploaded');
  const videos = await findVideosOfSet(deps.db, set.id);
  return { message: T.uploaded(files.length), set: toAdminSet(deps, admin, set, course, videos) };
}

/** Every course's training with its parts' status and progress (All Uploaded Training Videos). */
export async function listTrainingSets(deps: Deps, admin: TSessionUser): Promise<TAdminTrainingSet[]> {
  const sets = await findAllSets(deps.db);
  return sets.map((row) => toAdminSet(deps, admin, row.set, row.course, row.videos));
}

async function adminSetOf(deps: Deps, admin: TSessionUser, setId: string): Promise<TAdminTrainingSet> {
  const set = await findSetById(deps.db, setId);
  const course = set && (await findCourse(deps.db, set.courseId));
  if (!set || !course) throw new AppError('NOT_FOUND', T.none);
  return toAdminSet(deps, admin, set, course, await findVideosOfSet(deps.db, set.id));
}

/** Puts the set's parts in the order given (every part of the set, once). */
export async function reorderVideos(deps: Deps, admin: TSessionUser, actor: TStaffActor, input: TReorderRequest): Promise<TAdminTrainingSet & { message: string }> {
  await inTransaction(deps.db, async (tx) => {
    const set = await lockSet(tx, input.setId);
    if (!set) throw new AppError('NOT_FOUND', T.none);
    const current = (await findVideosOfSet(tx, set.id)).map((video) => video.id);
    const given = new Set(input.videoIds);
    if (given.size !== input.videoIds.length || given.size !== current.length || current.some((id) => !given.has(id))) {
      throw new AppError('BAD_REQUEST', T.reorderMismatch, { fields: { videoIds: T.reorderMismatch } });
    }
    await renumber(tx, set.id, input.videoIds);
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'training.reorder',
      subjectType: 'training-set',
      subjectId: set.id,
      before: { videoIds: current },
      after: { videoIds: input.videoIds },
    });
  });
  // A part moved after one not yet watched is locked again, at once.
  await revokeStreamAccess(deps, { setId: input.setId });
  deps.logger.info({ adminId: admin.id, setId: input.setId }, 'training reordered');
  return { message: T.reordered, ...(await adminSetOf(deps, admin, input.setId)) };
}

/** Deletes a part and its files; the parts after it move up. Learners' records of it go with it. */
export async function deleteTrainingVideo(deps: Deps, actor: TStaffActor, videoId: string): Promise<{ message: string }> {
  const removed = await inTransaction(deps.db, async (tx) => {
    const video = await findVideo(tx, videoId);
    if (!video) throw new AppError('NOT_FOUND', T.videoNotFound);
    await lockSet(tx, video.setId);
    const row = await deleteVideo(tx, videoId);
    if (!row) throw new AppError('NOT_FOUND', T.videoNotFound);
    await renumber(tx, row.setId, (await findVideosOfSet(tx, row.setId)).map((rest) => rest.id));
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'training.delete',
      subjectType: 'training-video',
      subjectId: videoId,
      before: { setId: row.setId, serial: video.serial, title: video.originalName, status: video.status },
      after: null,
    });
    return row;
  });
  await revokeStreamAccess(deps, { setId: removed.setId });
  // After the commit: a file left by a failure here is swept later, never a row without its file.
  const names = [removed.sourceFile, ...(removed.posterFile ? [removed.posterFile] : []), ...removed.renditions.map((rendition) => rendition.file)];
  await Promise.all(
    names.map((name) =>
      deps.files.remove('trainingVideo', name).catch((err: unknown) => deps.logger.warn({ err, name }, 'training video file not removed')),
    ),
  );
  deps.logger.info({ adminId: actor.id, videoId }, 'training video deleted');
  return { message: T.deleted };
}

/** Queues a failed video to be prepared again. */
export async function retryVideo(deps: Deps, actor: TStaffActor, videoId: string): Promise<{ message: string }> {
  const job = await inTransaction(deps.db, async (tx) => {
    const video = await findVideo(tx, videoId);
    if (!video) throw new AppError('NOT_FOUND', T.videoNotFound);
    if (video.status !== 'failed') throw new AppError('CONFLICT', T.notReady);
    await updateVideo(tx, videoId, { status: 'pending', progressPercent: 0, error: null });
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'training.retry',
      subjectType: 'training-video',
      subjectId: videoId,
      before: { status: video.status, error: video.error },
      after: { status: 'pending' },
    });
    return transcodeIntent(tx, videoId, `retry-${Date.now()}`);
  });
  await deps.jobs.dispatch([job]);
  deps.logger.info({ adminId: actor.id, videoId }, 'training video queued again');
  return { message: T.retried };
}

// ---------------------------------------------------------------------------------------------
// Learners

/** An administrator sees every course's training; a learner only with an approved enrolment. */
export async function requireTrainingAccess(deps: Deps, viewer: TSessionUser, courseId: string) {
  if (viewer.role === 'admin') return { enrolment: null };
  const enrolment = await findApprovedEnrolment(deps, viewer.id, courseId);
  if (!enrolment) throw new AppError('FORBIDDEN', T.notEnrolled);
  return { enrolment };
}

export function progressOf(completed: number, total: number): TProgress {
  return { completedVideos: completed, totalVideos: total, percent: total === 0 ? 0 : Math.floor((completed / total) * 100) };
}

/**
 * The course's parts in order for the player: completed and locked markers from the server's
 * record (part N+1 stays locked until 1..N are completed), where to resume, and stream links for
 * the parts the viewer may play. Administrators see every part unlocked.
 */
export async function getPlayer(deps: Deps, viewer: TSessionUser, courseId: string): Promise<TTrainingPlayer> {
  const { enrolment } = await requireTrainingAccess(deps, viewer, courseId);
  const course = await findCourse(deps.db, courseId);
  const set = await findSetByCourse(deps.db, courseId);
  if (!course || !set) throw new AppError('NOT_FOUND', T.noneForCourse);
  const rows = await findPlayerRows(deps.db, viewer.id, set.id);
  if (rows.length === 0) throw new AppError('NOT_FOUND', T.noneForCourse);

  const now = new Date();
  const locks = lockedParts(rows.map(({ watch }) => watch?.completedAt != null));
  const videos: TPlayerVideo[] = rows.map(({ video, watch }, index) => {
    const completed = watch?.completedAt != null;
    const locked = viewer.role !== 'admin' && locks[index]!;
    return {
      id: video.id,
      serial: video.serial,
      title: video.originalName,
      ready: video.status === 'ready',
      durationSeconds: video.durationSeconds,
      posterUrl: posterUrl(deps, video, now),
      sources: locked ? [] : sourcesOf(deps, viewer, video),
      completed,
      locked,
      watchedSeconds: Math.round((watch?.watchedSeconds ?? 0) * 10) / 10,
      resumeAt: completed ? 0 : (watch?.lastPosition ?? 0),
    };
  });
  const completedCount = videos.filter((video) => video.completed).length;
  const firstOpen = videos.findIndex((video) => !video.completed);
  return {
    setId: set.id,
    title: set.title,
    course: { id: course.id, title: course.title },
    videos,
    progress: progressOf(completedCount, videos.length),
    currentIndex: firstOpen === -1 ? videos.length - 1 : firstOpen,
    allCompleted: completedCount === videos.length,
    submittedAt: enrolment?.trainingSubmittedAt?.toISOString() ?? null,
  };
}

/** Why a report was not credited in full, as the auditor's evidence says it. */
export const REFUSAL_REASONS = {
  aheadOfClock: 'ahead of the server\'s clock',
} as const;

/** The learner submits the training once every part is completed; the course's test opens then. */
export async function submitTraining(deps: Deps, learner: TSessionUser, setId: string): Promise<TTrainingSubmitResult> {
  const set = await findSetById(deps.db, setId);
  if (!set) throw new AppError('NOT_FOUND', T.none);
  if (learner.role === 'admin') throw new AppError('FORBIDDEN', MESSAGES.common.forbidden);
  const enrolment = await findApprovedEnrolment(deps, learner.id, set.courseId);
  if (!enrolment) throw new AppError('FORBIDDEN', T.notEnrolled);
  const counts = await countCompleted(deps.db, learner.id, set.id);
  if (counts.total === 0 || counts.completed < counts.total) throw new AppError('BAD_REQUEST', T.notComplete);
  const submittedAt = await recordTrainingSubmitted(deps, enrolment.id);
  deps.logger.info({ userId: learner.id, setId }, 'training submitted');
  return { message: T.submitted, submittedAt: submittedAt.toISOString() };
}

// ---------------------------------------------------------------------------------------------
// Streams

export type TWatchEvidence = {
  parts: Array<{
    serial: number;
    title: string;
    durationSeconds: number | null;
    firstWatchedAt: Date | null;
    lastWatchedAt: Date | null;
    watchedSeconds: number;
    observedSeconds: number;
    completedAt: Date | null;
    refusals: Array<{ at: Date; reason: string; claimedFrom: number; claimedTo: number; creditedSeconds: number }>;
  }>;
};

/**
 * A learner's watching of a course's training as the server recorded it, for an auditor: each part
 * with when and for how long it was watched (credited, and timed on the server's clock), and every
 * report that was not credited in full, with the reason. Empty when the course has no training.
 */
export async function watchEvidence(deps: Pick<AppDeps, 'db'>, userId: string, courseId: string): Promise<TWatchEvidence> {
  const set = await findSetByCourse(deps.db, courseId);
  if (!set) return { parts: [] };
  const [rows, refusals] = await Promise.all([findPlayerRows(deps.db, userId, set.id), findWatchRefusals(deps.db, userId, set.id)]);
  return {
    parts: rows.map(({ video, watch }) => ({
      serial: video.serial,
      title: video.originalName,
      durationSeconds: video.durationSeconds,
      firstWatchedAt: watch?.firstBeatAt ?? null,
      // A sync of offline watching clears lastBeatAt (the online clock must not count its time
      // again) and stamps updatedAt: then that is when watching was last taken in.
      lastWatchedAt: watch?.lastBeatAt ?? (watch && watch.watchedSeconds > 0 ? watch.updatedAt : null),
      watchedSeconds: watch?.watchedSeconds ?? 0,
      observedSeconds: watch?.observedSeconds ?? 0,
      completedAt: watch?.completedAt ?? null,
      refusals: refusals
        .filter((refusal) => refusal.videoId === video.id)
        .map(({ at, reason, claimedFrom, claimedTo, creditedSeconds }) => ({ at, reason, claimedFrom, claimedTo, creditedSeconds })),
    })),
  };
}

/** The names of the files the videos keep (for the sweep of left-over uploads). */
export async function storedTrainingFileNames(deps: Pick<AppDeps, 'db'>): Promise<ReadonlySet<string>> {
  return new Set(await findVideoFileNames(deps.db));
}

// ---------------------------------------------------------------------------------------------
// Rounds of training

/**
 * A new round of training, when the course's test attempts ran out: the learner's watching of
 * every part of the course starts again from nothing (inside the failed attempt's transaction).
 */
export function resetWatching(db: Executor, userId: string, courseId: string): Promise<number> {
  return clearWatchProgressOfCourse(db, userId, courseId);
}

import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { plainText, presentText, requestObject, ZId } from './common.ts';
import { ZProgress } from './enrolment.ts';

const T = MESSAGES.training;

export const TRAINING_TITLE_MAX_LENGTH = 200;
/** At most this many parts in one training. */
export const TRAINING_MAX_VIDEOS = 200;

export const ZVideoStatus = z.enum(['pending', 'processing', 'ready', 'failed']);

/** The upload form's text fields (the files travel beside them as `trainingVideo`). */
export const ZTrainingUploadFields = z.object({
  courseId: z.string({ error: T.courseRequired }).min(1, T.courseRequired).pipe(ZId),
  title: presentText('Title', T.titleRequired).pipe(plainText('Title', TRAINING_TITLE_MAX_LENGTH)),
});

/** A playable rendition of a video; the URL is short-lived and signed. */
export const ZVideoSource = z.object({ height: z.number().int(), url: z.string() });
export type TVideoSource = z.infer<typeof ZVideoSource>;

/** One part of a training as administrators manage it. */
export const ZAdminVideo = z.object({
  id: z.string(),
  serial: z.number().int(),
  title: z.string(),
  status: ZVideoStatus,
  /** The transcode job's progress, 0 to 100, while processing. */
  progressPercent: z.number().int(),
  error: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  posterUrl: z.string().nullable(),
  sources: z.array(ZVideoSource),
  uploadedAt: z.string(),
});
export type TAdminVideo = z.infer<typeof ZAdminVideo>;

/** A course's training as administrators see it (All Uploaded Training Videos). */
export const ZAdminTrainingSet = z.object({
  id: z.string(),
  title: z.string(),
  course: z.object({ id: z.string(), title: z.string(), isActive: z.boolean() }),
  videos: z.array(ZAdminVideo),
});
export type TAdminTrainingSet = z.infer<typeof ZAdminTrainingSet>;

export const ZTrainingUploadResult = z.object({ message: z.string(), set: ZAdminTrainingSet });
export type TTrainingUploadResult = z.infer<typeof ZTrainingUploadResult>;

export const ZVideoRequest = requestObject({ videoId: ZId });
export const ZReorderRequest = requestObject({
  setId: ZId,
  videoIds: z.array(ZId).min(1, T.reorderMismatch).max(TRAINING_MAX_VIDEOS, T.reorderMismatch),
});
export type TReorderRequest = z.output<typeof ZReorderRequest>;

/** One part as the learner's player sees it. Sources are given only for unlocked, ready parts. */
export const ZPlayerVideo = z.object({
  id: z.string(),
  serial: z.number().int(),
  title: z.string(),
  ready: z.boolean(),
  durationSeconds: z.number().nullable(),
  posterUrl: z.string().nullable(),
  sources: z.array(ZVideoSource),
  completed: z.boolean(),
  locked: z.boolean(),
  /** Seconds of the part watched (merged, never counted twice). */
  watchedSeconds: z.number(),
  /** Where playback resumes. */
  resumeAt: z.number(),
});
export type TPlayerVideo = z.infer<typeof ZPlayerVideo>;

/** /training/{courseId}: the course's parts in order, the learner's progress and where to resume. */
export const ZTrainingPlayer = z.object({
  setId: z.string(),
  title: z.string(),
  course: z.object({ id: z.string(), title: z.string() }),
  videos: z.array(ZPlayerVideo),
  progress: ZProgress,
  /** The part to play now: the first not completed (or the last one). */
  currentIndex: z.number().int(),
  allCompleted: z.boolean(),
  submittedAt: z.string().nullable(),
});
export type TTrainingPlayer = z.infer<typeof ZTrainingPlayer>;

export const ZTrainingPlayerRequest = requestObject({ courseId: ZId });

const seconds = z.number().finite().min(0).max(24 * 3600);

/**
 * What the player reports every HEARTBEAT_SECONDS (constants.ts) while playing (and on pause and end): the span of
 * the video played since the last report, and the position now.
 */
export const ZHeartbeat = requestObject({
  videoId: ZId,
  from: seconds,
  to: seconds,
  position: seconds,
}).refine((beat) => beat.to >= beat.from, { message: 'The watched span must not end before it starts.', path: ['to'] });
export type THeartbeat = z.output<typeof ZHeartbeat>;

export const ZHeartbeatResult = z.object({
  videoId: z.string(),
  watchedSeconds: z.number(),
  completed: z.boolean(),
  progress: ZProgress,
  allCompleted: z.boolean(),
});
export type THeartbeatResult = z.infer<typeof ZHeartbeatResult>;

export const ZTrainingSubmitRequest = requestObject({ setId: ZId });
export const ZTrainingSubmitResult = z.object({ message: z.string(), submittedAt: z.string() });
export type TTrainingSubmitResult = z.infer<typeof ZTrainingSubmitResult>;

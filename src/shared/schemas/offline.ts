import { z } from 'zod';
import { requestObject, ZId } from './common.ts';
import { ZProgress } from './enrolment.ts';
import { RENDITION_HEIGHTS, SMALLEST_RENDITION_HEIGHT } from '../rendition-heights.ts';

/*
 * Study without a link (decision 050): a course downloaded to a device, the watch records
 * the device keeps while offline, and their sync. The record's signed text is in
 * shared/offline-record.ts, the same on the device and the server.
 */

/** At most this many records in one sync; a device with more sends them in rounds, in order. */
export const OFFLINE_SYNC_MAX_RECORDS = 500;

export const ZOfflinePackageRequest = requestObject({
  courseId: ZId,
  /** The rendition to download: the smallest unless another is chosen. */
  height: z.literal(RENDITION_HEIGHTS).default(SMALLEST_RENDITION_HEIGHT),
});
export type TOfflinePackageRequest = z.input<typeof ZOfflinePackageRequest>;

/** One part of a downloaded course: what the device fetches and how the player shows it. */
export const ZOfflinePart = z.object({
  id: z.string(),
  serial: z.number().int(),
  title: z.string(),
  durationSeconds: z.number(),
  /** The rendition's size: the download's size is known before it starts. */
  bytes: z.number().int(),
  /** The media's link for this download (Range requests; with the viewer's stream pass cookie). */
  url: z.string(),
  posterUrl: z.string().nullable(),
  /** Completed on the server's record when the package was made. */
  completed: z.boolean(),
  /** Seconds credited on the server's record. */
  watchedSeconds: z.number(),
});

/**
 * A course to keep on the device. `downloadId` and `recordKey` name this device's download: the
 * device signs its watch records with the key (HMAC-SHA256) and sends them with the id.
 */
export const ZOfflinePackage = z.object({
  downloadId: z.string(),
  recordKey: z.string(),
  setId: z.string(),
  course: z.object({ id: z.string(), title: z.string() }),
  height: z.number().int(),
  parts: z.array(ZOfflinePart),
  totalBytes: z.number().int(),
  submittedAt: z.string().nullable(),
});
export type TOfflinePackage = z.infer<typeof ZOfflinePackage>;

/** Resuming a download on the device: fresh links (for this session) for the same download. */
export const ZOfflineResumeRequest = requestObject({ downloadId: ZId });

const deviceMs = z.number().int().min(0).max(8_640_000_000_000);

/**
 * What the device played of a part while offline: the span of the video, the device's wall clock
 * at its start and end (milliseconds since 1970), the milliseconds its monotonic clock ran, the
 * record's place in the device's sequence (1, 2, …), the previous record's signature, and its own.
 */
export const ZOfflineWatchRecord = requestObject({
  id: ZId,
  seq: z.number().int().min(1).max(10_000_000),
  videoId: ZId,
  from: z.number().finite().min(0).max(24 * 3600),
  to: z.number().finite().min(0).max(24 * 3600),
  startedAt: deviceMs,
  endedAt: deviceMs,
  playedMs: z.number().int().min(0).max(24 * 3600 * 1000),
  prev: z.string().max(100).nullable(),
  signature: z.string().min(1).max(100),
});
export type TOfflineWatchRecord = z.output<typeof ZOfflineWatchRecord>;

export const ZOfflineSyncRequest = requestObject({
  downloadId: ZId,
  records: z.array(ZOfflineWatchRecord).min(1).max(OFFLINE_SYNC_MAX_RECORDS),
});
export type TOfflineSyncRequest = z.output<typeof ZOfflineSyncRequest>;

export const ZOfflineRecordOutcome = z.enum(['credited', 'duplicate', 'refused']);

export const ZOfflineSyncResult = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      outcome: ZOfflineRecordOutcome,
      /** Why a record was refused, in words for the learner and the auditor. */
      reason: z.string().nullable(),
      creditedSeconds: z.number(),
    }),
  ),
  /** The parts as the server now records them. */
  parts: z.array(z.object({ videoId: z.string(), watchedSeconds: z.number(), completed: z.boolean() })),
  progress: ZProgress,
  allCompleted: z.boolean(),
});
export type TOfflineSyncResult = z.infer<typeof ZOfflineSyncResult>;

/** Which of the device's downloads still work: the others' files are removed from the device. */
export const ZOfflineStatusRequest = requestObject({ downloadIds: z.array(ZId).max(100) });
export const ZOfflineStatus = z.object({ active: z.array(z.string()) });
export type TOfflineStatus = z.infer<typeof ZOfflineStatus>;

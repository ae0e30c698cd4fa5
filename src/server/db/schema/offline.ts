import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { courses } from './courses.ts';
import { trainingVideos } from './training.ts';
import { users } from './users.ts';

/**
 * A course kept on one device for study without a link (decision 050): one row each time
 * a learner downloads a course on a device. The device signs the watch records it keeps with
 * `recordKey` and numbers them; the server takes them in once each, in order.
 */
export const offlineDownloads = pgTable(
  'offline_downloads',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** The rendition kept on the device (360 or 720). */
    height: integer('height').notNull(),
    /** The key the device signs its watch records with (HMAC-SHA256), given once, to the device. */
    recordKey: text('record_key').notNull(),
    /** The last record taken in: records come in the device's order, each once (`seq` 1, 2, …). */
    lastSeq: integer('last_seq').notNull().default(0),
    /** That record's signature: the next record names it (`prev`), so none can be left out or edited. */
    lastSignature: text('last_signature'),
    /** The device's clock at the end of the last record taken in: device times never run backwards. */
    lastDeviceEndedAt: timestamp('last_device_ended_at', { withTimezone: true }),
    /**
     * Seconds of offline playing credited to the clock for this download, summed over every
     * record: never more than the real time since its first part was fetched.
     */
    creditedPlaySeconds: real('credited_play_seconds').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('offline_downloads_user_course_idx').on(t.userId, t.courseId)],
);

/** When each part's media was first fetched for a download: offline credit never runs ahead of it. */
export const offlinePartFetches = pgTable(
  'offline_part_fetches',
  {
    downloadId: uuid('download_id')
      .notNull()
      .references(() => offlineDownloads.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => trainingVideos.id, { onDelete: 'cascade' }),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.downloadId, t.videoId] })],
);

/**
 * Every watch record a device sent, as it was taken in: what it claimed, what was credited, and
 * why not when refused (the auditor's evidence). A record sent again answers as it did the first
 * time and changes nothing.
 */
export const offlineWatchRecords = pgTable(
  'offline_watch_records',
  {
    /** The device's own id of the record (a UUID it made). */
    id: uuid('id').primaryKey(),
    downloadId: uuid('download_id')
      .notNull()
      .references(() => offlineDownloads.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => trainingVideos.id, { onDelete: 'cascade' }),
    fromSeconds: real('from_seconds').notNull(),
    toSeconds: real('to_seconds').notNull(),
    deviceStartedAt: timestamp('device_started_at', { withTimezone: true }).notNull(),
    deviceEndedAt: timestamp('device_ended_at', { withTimezone: true }).notNull(),
    /** Milliseconds the device's monotonic clock ran while the span played. */
    playedMs: integer('played_ms').notNull(),
    signature: text('signature').notNull(),
    /** 'credited' (perhaps 0 s: seconds watched before) or 'refused'. */
    outcome: text('outcome').notNull(),
    reason: text('reason'),
    creditedSeconds: real('credited_seconds').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('offline_watch_records_download_seq_unique').on(t.downloadId, t.seq),
    check('offline_watch_records_seq_positive', sql`${t.seq} >= 1`),
  ],
);

export type TOfflineDownloadRow = typeof offlineDownloads.$inferSelect;
export type TOfflineWatchRecordRow = typeof offlineWatchRecords.$inferSelect;

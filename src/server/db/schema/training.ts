import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { courses } from './courses.ts';
import { videoStatusEnum } from './enums.ts';
import { users } from './users.ts';

/** The ordered training videos of one course. */
export const trainingVideoSets = pgTable(
  'training_video_sets',
  {
    id: id(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('training_video_sets_course_unique').on(t.courseId)],
);

export type TRendition = { height: number; file: string; bitrateKbps: number };

export const trainingVideos = pgTable(
  'training_videos',
  {
    id: id(),
    setId: uuid('set_id')
      .notNull()
      .references(() => trainingVideoSets.id, { onDelete: 'cascade' }),
    serial: integer('serial').notNull(),
    originalName: text('original_name').notNull(),
    sourceFile: text('source_file').notNull(),
    status: videoStatusEnum('status').notNull().default('pending'),
    /** How far the transcode job has got, 0 to 100, while the status is processing. */
    progressPercent: integer('progress_percent').notNull().default(0),
    durationSeconds: real('duration_seconds'),
    renditions: jsonb('renditions').$type<TRendition[]>().notNull().default([]),
    posterFile: text('poster_file'),
    /** Why the video could not be prepared, in words an administrator can act on. */
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('training_videos_set_serial_unique').on(t.setId, t.serial),
    check('training_videos_serial_positive', sql`${t.serial} >= 1`),
  ],
);

export type TWatchedInterval = [start: number, end: number];

/** What a learner has watched of a video, recorded from the player's heartbeats. */
export const watchProgress = pgTable(
  'watch_progress',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => trainingVideos.id, { onDelete: 'cascade' }),
    watchedIntervals: jsonb('watched_intervals').$type<TWatchedInterval[]>().notNull().default([]),
    watchedSeconds: real('watched_seconds').notNull().default(0),
    /** Where the learner was at the last heartbeat: playback resumes here, on any device. */
    lastPosition: real('last_position').notNull().default(0),
    /** When the last heartbeat arrived: a claim of more watching than time has passed is refused. */
    lastBeatAt: timestamp('last_beat_at', { withTimezone: true }),
    /**
     * Wall-clock seconds the server saw this viewer playing the part, summed over every report:
     * credit never runs ahead of it (decision 041).
     */
    observedSeconds: real('observed_seconds').notNull().default(0),
    /** When the first report of this part arrived (the auditor's evidence). */
    firstBeatAt: timestamp('first_beat_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('watch_progress_user_video_unique').on(t.userId, t.videoId),
    index('watch_progress_video_idx').on(t.videoId),
  ],
);

/**
 * A watch report the server did not credit in full, and why: the auditor's evidence that a
 * certificate's watching was measured, not taken on the client's word.
 */
export const watchRefusals = pgTable(
  'watch_refusals',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => trainingVideos.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    claimedFrom: real('claimed_from').notNull(),
    claimedTo: real('claimed_to').notNull(),
    creditedSeconds: real('credited_seconds').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('watch_refusals_user_video_idx').on(t.userId, t.videoId, t.createdAt)],
);

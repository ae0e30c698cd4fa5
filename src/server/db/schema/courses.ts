import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { enrolmentStatusEnum } from './enums.ts';
import { users } from './users.ts';

export const courses = pgTable(
  'courses',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    duration: text('duration').notNull(),
    price: numeric('price', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    category: text('category').notNull(),
    subjects: jsonb('subjects').$type<string[]>().notNull(),
    imageFile: text('image_file'),
    /** The stored image's size in pixels, so pages reserve its space before it loads. */
    imageWidth: integer('image_width'),
    imageHeight: integer('image_height'),
    isActive: boolean('is_active').notNull().default(true),
    /** The course's short code on certificates and the regulator's batch (e.g. FPFF); optional. */
    code: text('code'),
    /** The regulator's approval number of the course, printed on its certificates; optional. */
    approvalNumber: text('approval_number'),
    /** How long its certificate is valid, in months; null: it does not expire. */
    certificateValidityMonths: integer('certificate_validity_months'),
    /** The course whose certificate renews this one's (a refresher); optional. */
    refresherCourseId: uuid('refresher_course_id').references((): AnyPgColumn => courses.id, { onDelete: 'set null' }),
    /** The test opens only to a learner whose account is approved and whose profile has INDOS, date of birth and passport. */
    testRequiresApprovedProfile: boolean('test_requires_approved_profile').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('courses_active_idx').on(t.isActive),
    check('courses_validity_range', sql`${t.certificateValidityMonths} is null or ${t.certificateValidityMonths} between 1 and 120`),
    check('courses_refresher_not_self', sql`${t.refresherCourseId} is null or ${t.refresherCourseId} <> ${t.id}`),
    check('courses_price_nonnegative', sql`${t.price} >= 0`),
    check('courses_subjects_list', sql`jsonb_typeof(${t.subjects}) = 'array'`),
  ],
);

/** A learner's enrolment in a course: pending until an administrator accepts or rejects it. */
export const enrolments = pgTable(
  'enrolments',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'restrict' }),
    status: enrolmentStatusEnum('status').notNull().default('pending'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** When the learner last asked: a rejected request asked again goes back to the queue as new. */
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the learner submitted the course's training, every part watched (the test opens then). */
    trainingSubmittedAt: timestamp('training_submitted_at', { withTimezone: true }),
    /**
     * Test attempts an administrator granted beyond the test's allowance, for the current round of
     * training (a new round, after the training is watched again, starts from none).
     */
    extraAttempts: integer('extra_attempts').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('enrolments_user_course_unique').on(t.userId, t.courseId),
    index('enrolments_status_requested_idx').on(t.status, t.requestedAt),
    // The administrators' search finds matching learners and courses first, then their requests
    // in one status from these alone (index-only), however many requests there are.
    index('enrolments_status_user_idx').on(t.status, t.userId, t.requestedAt, t.id),
    index('enrolments_course_status_idx').on(t.courseId, t.status, t.requestedAt, t.id),
  ],
);

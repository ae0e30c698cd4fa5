import { pgSequence, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { testAttempts } from './tests.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { courses } from './courses.ts';
import { certificateStatusEnum } from './enums.ts';
import { users } from './users.ts';

/** Certificate numbers (MTA/{year}/{six digits}) come from here: unique without a lock, gaps allowed. */
export const certificateNumberSeq = pgSequence('certificate_number_seq', { startWith: 1 });

/**
 * A pass's certificate: one per learner and course (the first pass's), numbered and given its
 * verification code when it is issued, its PDF rendered afterwards by a job.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    attemptId: uuid('attempt_id')
      .notNull()
      .references(() => testAttempts.id, { onDelete: 'restrict' }),
    number: text('number').notNull(),
    /**
     * The secret the QR code and the printed link carry: with it, verification shows the holder's
     * details; with the number alone, only whether it exists, its state and a masked name.
     */
    verificationCode: text('verification_code').notNull(),
    status: certificateStatusEnum('status').notNull().default('pending'),
    /** The PDF's unguessable name in the `certificates` file area, chosen before it is written. */
    pdfFile: text('pdf_file'),
    issuedAt: createdAt(),
    updatedAt: updatedAt(),
    /** An administrator withdrew it: verification says revoked, the PDF is no longer served. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    /** Kept for the record; never shown publicly. */
    revokeReason: text('revoke_reason'),
  },
  (t) => [
    uniqueIndex('certificates_user_course_unique').on(t.userId, t.courseId),
    uniqueIndex('certificates_number_unique').on(t.number),
    uniqueIndex('certificates_verification_code_unique').on(t.verificationCode),
    uniqueIndex('certificates_pdf_file_unique').on(t.pdfFile),
  ],
);

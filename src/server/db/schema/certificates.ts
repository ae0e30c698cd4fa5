import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgSequence, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { testAttempts } from './tests.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { courses } from './courses.ts';
import { certificateStatusEnum } from './enums.ts';
import { mails } from './jobs.ts';
import { users } from './users.ts';

/** Certificate numbers (MTA/{year}/{six digits}) come from here: unique without a lock, gaps allowed. */
export const certificateNumberSeq = pgSequence('certificate_number_seq', { startWith: 1 });

/**
 * What a certificate version prints of its holder, copied from the approved profile (and the
 * account's name where there is no profile) when the version is made, so a later edit of the
 * profile changes nothing already issued: a correction needs a re-issue.
 */
const holderColumns = () => ({
  holderName: text('holder_name').notNull(),
  holderDateOfBirth: date('holder_date_of_birth', { mode: 'string' }),
  holderIndosNo: text('holder_indos_no'),
  holderPassportNumber: text('holder_passport_number'),
  holderCdcNumber: text('holder_cdc_number'),
  /** Who verified the holder's identity values printed here, and when; null: none were verified. */
  holderVerifiedByName: text('holder_verified_by_name'),
  holderVerifiedAt: timestamp('holder_verified_at', { withTimezone: true }),
});

/**
 * A pass's certificate: one per learner and course (the first pass's), numbered and given its
 * verification code when it is issued, its PDF rendered afterwards by a job. The row holds the
 * current version; earlier versions (before a re-issue) are kept in `certificate_versions`.
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
    /** 1 when issued; each re-issue adds one (same number, new code and PDF). */
    version: integer('version').notNull().default(1),
    /**
     * The secret the QR code and the printed link carry: with it, verification shows the holder's
     * details; with the number alone, only whether it exists, its state and a masked name.
     */
    verificationCode: text('verification_code').notNull(),
    status: certificateStatusEnum('status').notNull().default('pending'),
    /** The PDF's unguessable name in the `certificates` file area, chosen before it is written. */
    pdfFile: text('pdf_file'),
    ...holderColumns(),
    /** The course's code and approval number when it was issued. */
    courseCode: text('course_code'),
    approvalNumber: text('approval_number'),
    /** The last day it is valid (UTC calendar day); null: it does not expire. */
    validUntil: date('valid_until', { mode: 'string' }),
    issuedAt: createdAt(),
    /** When the current version was made by a re-issue; null for the first version. */
    reissuedAt: timestamp('reissued_at', { withTimezone: true }),
    updatedAt: updatedAt(),
    /** An administrator withdrew it: verification says revoked, the PDF is no longer served. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    /** Kept for the record and shown to the holder and administrators; never shown publicly. */
    revokeReason: text('revoke_reason'),
    /** The refresher course's certificate that renewed this one. */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    supersededById: uuid('superseded_by_id').references((): AnyPgColumn => certificates.id, { onDelete: 'set null' }),
    /** The certificate this one renews (it was issued for that one's refresher course). */
    renewsId: uuid('renews_id').references((): AnyPgColumn => certificates.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('certificates_user_course_unique').on(t.userId, t.courseId),
    uniqueIndex('certificates_number_unique').on(t.number),
    uniqueIndex('certificates_verification_code_unique').on(t.verificationCode),
    uniqueIndex('certificates_pdf_file_unique').on(t.pdfFile),
    // The reminder sweep and "expiring within N days" read only live certificates that expire.
    index('certificates_live_valid_until_idx')
      .on(t.validUntil, t.id)
      .where(sql`${t.revokedAt} is null and ${t.supersededAt} is null and ${t.validUntil} is not null`),
    // A course's batch for the regulator, in order of issue.
    index('certificates_course_issued_idx').on(t.courseId, t.issuedAt, t.id),
    check('certificates_version_positive', sql`${t.version} >= 1`),
  ],
);

/**
 * A certificate's earlier versions, kept when it is re-issued: their codes and PDFs answer
 * "superseded by version N"; what they printed stays on record.
 */
export const certificateVersions = pgTable(
  'certificate_versions',
  {
    id: id(),
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => certificates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    verificationCode: text('verification_code').notNull(),
    pdfFile: text('pdf_file'),
    ...holderColumns(),
    /** When this version was made (the certificate's issue, or an earlier re-issue). */
    madeAt: timestamp('made_at', { withTimezone: true }).notNull(),
    /** When the next version replaced it, and who re-issued. */
    replacedAt: createdAt(),
    replacedBy: uuid('replaced_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('certificate_versions_certificate_version_unique').on(t.certificateId, t.version),
    uniqueIndex('certificate_versions_code_unique').on(t.verificationCode),
    uniqueIndex('certificate_versions_pdf_file_unique').on(t.pdfFile),
  ],
);

/**
 * Each expiry reminder sent for a certificate: one row per certificate and stage (days before
 * expiry), written in the transaction that queues its mail, so a stage is mailed exactly once
 * whichever process runs the sweep, however often.
 */
export const certificateReminders = pgTable(
  'certificate_reminders',
  {
    id: id(),
    certificateId: uuid('certificate_id')
      .notNull()
      .references(() => certificates.id, { onDelete: 'cascade' }),
    daysBefore: integer('days_before').notNull(),
    /** The expiry it warned of. */
    validUntil: date('valid_until', { mode: 'string' }).notNull(),
    mailId: uuid('mail_id').references(() => mails.id, { onDelete: 'set null' }),
    /** Who asked: the schedule, or the administrator who ran it now. */
    runBy: uuid('run_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('certificate_reminders_stage_unique').on(t.certificateId, t.daysBefore),
    check('certificate_reminders_days_positive', sql`${t.daysBefore} >= 1`),
  ],
);

import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { identityStateEnum, idTypeEnum } from './enums.ts';
import { users } from './users.ts';

/** A seafarer's identity and seafaring documents; files are stored under generated names. */
export const profiles = pgTable(
  'profiles',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    gradeNumber: text('grade_number').notNull(),
    phone: text('phone').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    passportNumber: text('passport_number').notNull(),
    passportExpiryDate: date('passport_expiry_date', { mode: 'string' }).notNull(),
    indosNo: text('indos_no').notNull(),
    cdcNumber: text('cdc_number').notNull(),
    cdcExpiryDate: date('cdc_expiry_date', { mode: 'string' }).notNull(),
    idType: idTypeEnum('id_type').notNull(),
    streetAddress: text('street_address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull(),
    zipCode: text('zip_code').notNull(),
    profilePictureFile: text('profile_picture_file').notNull(),
    idDocumentFile: text('id_document_file').notNull(),
    signatureFile: text('signature_file').notNull(),
    /** When the learner accepted the notice on why the documents are collected and who sees them. */
    consentAcceptedAt: timestamp('consent_accepted_at', { withTimezone: true }),
    /**
     * The identity check: unverified, awaiting check, verified or returned. `identityVersion` grows
     * with every change of an identity field and every check, so a check names the version it saw
     * and a stale one is refused.
     */
    identityState: identityStateEnum('identity_state').notNull().default('unverified'),
    identityVersion: integer('identity_version').notNull().default(1),
    /** Who verified or returned the current version, and when; the reason the learner sees when returned. */
    identityCheckedBy: uuid('identity_checked_by').references(() => users.id, { onDelete: 'set null' }),
    identityCheckedAt: timestamp('identity_checked_at', { withTimezone: true }),
    identityReturnReason: text('identity_return_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('profiles_user_unique').on(t.userId),
    // The admin search matches the start of each value, case-insensitively, whatever the collation.
    index('profiles_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    // A word anywhere in the name ("Menon" in "Kavya Menon"), for searches of three letters or more.
    index('profiles_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('profiles_indos_prefix_idx').on(sql`lower(${t.indosNo}) text_pattern_ops`),
    index('profiles_passport_prefix_idx').on(sql`lower(${t.passportNumber}) text_pattern_ops`),
    index('profiles_cdc_prefix_idx').on(sql`lower(${t.cdcNumber}) text_pattern_ops`),
    // Newest first is a backward scan of this index.
    index('profiles_created_idx').on(t.createdAt, t.id),
    // The same INDOS or passport number on two accounts, compared as letters and digits only.
    index('profiles_indos_key_idx').on(sql`regexp_replace(upper(${t.indosNo}), '[^A-Z0-9]', '', 'g')`),
    index('profiles_passport_key_idx').on(sql`regexp_replace(upper(${t.passportNumber}), '[^A-Z0-9]', '', 'g')`),
    // The identity checks' queue: awaiting check first, oldest change first.
    index('profiles_identity_state_idx').on(t.identityState, t.updatedAt),
  ],
);

/**
 * The identity history of a profile: one row per submission, change, verification or return, each
 * with the identity values as they were then and the state they led to. Verified rows are the
 * values a certificate may print. Personal data: erased with the learner's profile.
 */
export const profileIdentityVersions = pgTable(
  'profile_identity_versions',
  {
    id: id(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The profile's identity version this row records. */
    version: integer('version').notNull(),
    state: identityStateEnum('state').notNull(),
    name: text('name').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    indosNo: text('indos_no').notNull(),
    passportNumber: text('passport_number').notNull(),
    passportExpiryDate: date('passport_expiry_date', { mode: 'string' }).notNull(),
    cdcNumber: text('cdc_number').notNull(),
    profilePictureFile: text('profile_picture_file').notNull(),
    idDocumentFile: text('id_document_file').notNull(),
    /** The member of staff who verified or returned (null for the learner's own submission or change). */
    checkedBy: uuid('checked_by').references(() => users.id, { onDelete: 'set null' }),
    checkedByName: text('checked_by_name'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('profile_identity_versions_profile_idx').on(t.profileId, t.createdAt),
    index('profile_identity_versions_user_idx').on(t.userId),
    check('profile_identity_versions_version_positive', sql`${t.version} >= 1`),
  ],
);

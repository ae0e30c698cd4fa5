import { sql } from 'drizzle-orm';
import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { idTypeEnum } from './enums.ts';
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
  ],
);

import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail (decision 067): one row per staff action (and the learner's own requests about
 * their data), written in the transaction of the change it records. Append-only: a trigger refuses
 * UPDATE and DELETE, and each row's hash covers the previous row's hash and its own content, so an
 * edit made past the trigger breaks the chain that `checkAuditChain` walks.
 *
 * No foreign keys: an entry outlives the account it names (erasure keeps the trail).
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    /** The chain's order. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    /** Who acted: a member of staff, a learner about their own data, or null for the system. */
    actorId: uuid('actor_id'),
    /** The actor's name and role as they were at the time. */
    actorName: text('actor_name'),
    actorRole: text('actor_role'),
    address: text('address'),
    /** What was done, as a dotted name: 'identity.verify', 'certificate.revoke', 'staff.role'… */
    action: text('action').notNull(),
    /** What it was done to: its kind and id. */
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id'),
    /** The learner it concerns, when there is one (the search by learner). */
    learnerId: uuid('learner_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_entries_at_idx').on(t.at),
    index('audit_entries_actor_idx').on(t.actorId, t.at),
    index('audit_entries_learner_idx').on(t.learnerId, t.at),
    index('audit_entries_action_idx').on(t.action, t.at),
    index('audit_entries_subject_idx').on(t.subjectType, t.subjectId),
    check('audit_entries_hash_hex', sql`${t.hash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * The academy's settings, one row (id 'academy'). Read through `modules/settings`; changed by the owner,
 * audited.
 */
export const academySettings = pgTable(
  'academy_settings',
  {
    id: text('id').primaryKey().default('academy'),
    /** Every staff sign-in needs a second factor (the default). */
    staffSecondFactorRequired: boolean('staff_second_factor_required').notNull().default(true),
    /** How many years issued certificates and the records behind them are kept after an erasure. */
    retentionYears: integer('retention_years').notNull().default(10),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    check('academy_settings_one_row', sql`${t.id} = 'academy'`),
    check('academy_settings_retention_range', sql`${t.retentionYears} between 1 and 100`),
  ],
);

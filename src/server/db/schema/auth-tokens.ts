import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { otpPurposeEnum } from './enums.ts';
import { users } from './users.ts';
import type { TSecondFactorState } from '../../../shared/constants.ts';

/** Refresh tokens are stored as hashes; a family is every token rotated from one login. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * How the session's sign-in met the second factor: 'passed' (a code, a passkey or a recovery
     * code was given) or 'waived' (the academy made it optional, or a learner who has none). Its
     * renewals carry it into their access tokens (decision 067).
     */
    secondFactor: text('second_factor').$type<TSecondFactorState>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_unique').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
    check('refresh_tokens_second_factor_known', sql`${t.secondFactor} in ('passed', 'waived')`),
  ],
);

/** One-time passwords: hashed, short-lived, a limited number of tries, used once. */
export const oneTimePasswords = pgTable(
  'one_time_passwords',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: otpPurposeEnum('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** Set when a newer code of the same purpose replaced this one. */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('one_time_passwords_user_purpose_idx').on(t.userId, t.purpose),
    check('one_time_passwords_attempts_nonnegative', sql`${t.failedAttempts} >= 0`),
  ],
);

/** The one-time link that lets the first administrator create their account. */
export const adminSetupTokens = pgTable(
  'admin_setup_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_setup_tokens_hash_unique').on(t.tokenHash)],
);

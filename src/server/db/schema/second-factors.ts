import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './users.ts';

/**
 * A user's second factors: authenticator apps (TOTP, RFC 6238) and passkeys (WebAuthn). A TOTP
 * factor is pending (`confirmed_at` null) until its first code is given; only confirmed factors
 * count at sign-in.
 */
export const secondFactors = pgTable(
  'second_factors',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'totp' | 'passkey'>().notNull(),
    /** What the user calls it ("Authenticator app", "Phone passkey"). */
    label: text('label').notNull(),
    /** TOTP: the shared secret, base32. */
    totpSecret: text('totp_secret'),
    /** TOTP: the last 30-second step whose code was accepted; a code of that step or earlier is refused. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Passkey: the credential's id (base64url), its COSE public key (base64url) and signature counter. */
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: integer('sign_count').notNull().default(0),
    transports: text('transports').array(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('second_factors_user_idx').on(t.userId),
    uniqueIndex('second_factors_credential_unique').on(t.credentialId),
    check('second_factors_kind_known', sql`${t.kind} in ('totp', 'passkey')`),
    check(
      'second_factors_kind_fields',
      sql`(${t.kind} = 'totp' and ${t.totpSecret} is not null) or (${t.kind} = 'passkey' and ${t.credentialId} is not null and ${t.publicKey} is not null)`,
    ),
  ],
);

/** One-time recovery codes, stored as hashes; each works once. A new set replaces the old one. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId), uniqueIndex('recovery_codes_user_hash_unique').on(t.userId, t.codeHash)],
);

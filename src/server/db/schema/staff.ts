import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { staffRoleEnum } from './enums.ts';

/**
 * An owner's invitation to join the academy's staff with a role (decision 067). The link's token is
 * stored hashed; it works once, for seven days from when it was last sent. An e-mail has at most
 * one open invitation (neither used nor revoked).
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: id(),
    email: text('email').notNull(),
    staffRole: staffRoleEnum('staff_role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The account the invitation made. */
    userId: uuid('user_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('staff_invitations_token_unique').on(t.tokenHash),
    uniqueIndex('staff_invitations_open_email_unique').on(t.email).where(sql`${t.usedAt} is null and ${t.revokedAt} is null`),
    index('staff_invitations_created_idx').on(t.createdAt),
    check('staff_invitations_email_lowercase', sql`${t.email} = lower(${t.email})`),
  ],
);

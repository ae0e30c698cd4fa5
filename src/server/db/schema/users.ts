import { sql, type SQL } from 'drizzle-orm';
import { boolean, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { roleEnum, staffRoleEnum } from './enums.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    title: text('title').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    mobile: text('mobile').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull().default('learner'),
    /** What a member of staff (role 'admin') may do; null for a learner (decision 067). */
    staffRole: staffRoleEnum('staff_role'),
    /**
     * A closed account: a member of staff the owner has deactivated, or a learner who asked for
     * erasure. No sign-in, no session.
     */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** When the learner's personal data was erased at their request (the account is closed too). */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    /**
     * Until when what an erasure kept (issued certificates and the records behind them) must stay:
     * the academy's retention period from the erasure. After this day it may be removed.
     */
    retainUntil: date('retain_until', { mode: 'string' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: uuid('approved_by'),
    /** Whether the learner wants e-mail before a certificate expires (they can turn it off). */
    certificateReminders: boolean('certificate_reminders').notNull().default(true),
    /** Name and e-mail in lower case, for the administrators' searches (trigram index below). */
    searchText: text('search_text').generatedAlwaysAs(
      (): SQL => sql`lower(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.email})`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    // Prefix searches (admin profile search) on any collation.
    index('users_email_prefix_idx').on(t.email.op('text_pattern_ops')),
    index('users_role_approved_idx').on(t.role, t.approvedAt),
    index('users_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
    check('users_staff_role_for_staff', sql`(${t.role} = 'admin') = (${t.staffRole} is not null)`),
  ],
);

import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { roleEnum } from './enums.ts';

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
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: uuid('approved_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    // Prefix searches (admin profile search) on any collation.
    index('users_email_prefix_idx').on(t.email.op('text_pattern_ops')),
    index('users_role_approved_idx').on(t.role, t.approvedAt),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
  ],
);

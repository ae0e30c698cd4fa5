import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { jobStatusEnum } from './enums.ts';

/**
 * The job outbox: a job's intent, written in the same transaction as the change that needs it.
 * Redis only carries work that can be rebuilt from these rows.
 */
export const jobOutbox = pgTable(
  'job_outbox',
  {
    id: id(),
    name: text('name').notNull(),
    businessKey: text('business_key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: jobStatusEnum('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('job_outbox_name_key_unique').on(t.name, t.businessKey),
    index('job_outbox_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check('job_outbox_attempts_nonnegative', sql`${t.attempts} >= 0`),
  ],
);

/** Outgoing e-mail. The body is cleared once the message is delivered. */
export const mails = pgTable('mails', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text'),
  html: text('html'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  /** Until when a run of the send job holds the mail (claimed before it talks to the SMTP server). */
  sendingUntil: timestamp('sending_until', { withTimezone: true }),
  messageId: text('message_id'),
  createdAt: createdAt(),
});

import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mails } from '../../db/schema.ts';

export type TMailRow = typeof mails.$inferSelect;
export type TNewMail = { to: string; subject: string; text: string; html?: string };

export async function insertMail(db: Executor, mail: TNewMail): Promise<string> {
  const [row] = await db.insert(mails).values(mail).returning({ id: mails.id });
  if (!row) throw new Error('mail insert returned no row');
  return row.id;
}

/** Several mails in one statement, each with the id the caller chose. */
export async function insertMails(db: Executor, rows: ReadonlyArray<TNewMail & { id: string }>): Promise<void> {
  if (rows.length > 0) await db.insert(mails).values([...rows]);
}

export async function findById(db: Executor, id: string): Promise<TMailRow | undefined> {
  const [row] = await db.select().from(mails).where(eq(mails.id, id));
  return row;
}

/** Marks a mail delivered and forgets its body: a delivered code has no reason to stay readable. */
export async function markSent(db: Executor, id: string, messageId: string): Promise<void> {
  await db.update(mails).set({ sentAt: new Date(), messageId, text: null, html: null }).where(eq(mails.id, id));
}

/**
 * Claims a mail for one run of the send job: only a mail not delivered yet, with its body, that no
 * other run holds (or whose hold ran out: that run died). Answers the mail when this run holds it.
 */
export async function claimForSending(db: Executor, id: string, holdMs: number): Promise<TMailRow | undefined> {
  const [row] = await db
    .update(mails)
    .set({ sendingUntil: sql`now() + ${`${holdMs} milliseconds`}::interval` })
    .where(and(eq(mails.id, id), isNull(mails.sentAt), isNotNull(mails.text), or(isNull(mails.sendingUntil), lt(mails.sendingUntil, sql`now()`))))
    .returning();
  return row;
}

/** Lets another run send a mail this run could not (the SMTP server refused or failed). */
export async function releaseClaim(db: Executor, id: string): Promise<void> {
  await db.update(mails).set({ sendingUntil: null }).where(and(eq(mails.id, id), isNull(mails.sentAt)));
}

import { randomUUID } from 'node:crypto';
import { JOBS } from '../../../shared/jobs.ts';
import type { Executor } from '../../db/client.ts';
import { insertIntent, insertIntents } from '../jobs/outbox.repository.ts';
import type { TJobRef } from '../jobs/dispatcher.ts';
import { insertMail, insertMails, type TNewMail } from './mail.repository.ts';

/**
 * Queues an e-mail inside the caller's transaction: the message and the intent to send it commit
 * with the change that needs them. Dispatch the returned job once the transaction has committed.
 */
export async function queueMail(tx: Executor, mail: TNewMail): Promise<TJobRef> {
  const mailId = await insertMail(tx, mail);
  const name = JOBS.sendMail.name;
  const id = await insertIntent(tx, { name, businessKey: mailId, payload: { mailId } });
  return { id, name };
}

/**
 * `queueMail` for many mails at once, in two statements whatever their number (a sweep's batch).
 * Returns each mail's id and its job, in the order given; dispatch the jobs once committed.
 */
export async function queueMails(tx: Executor, batch: readonly TNewMail[]): Promise<Array<{ mailId: string; job: TJobRef }>> {
  const rows = batch.map((mail) => ({ ...mail, id: randomUUID() }));
  await insertMails(tx, rows);
  const name = JOBS.sendMail.name;
  const jobIds = await insertIntents(
    tx,
    rows.map((row) => ({ name, businessKey: row.id, payload: { mailId: row.id } })),
  );
  return rows.map((row) => {
    const id = jobIds.get(row.id);
    if (!id) throw new Error(`outbox row for mail ${row.id} not written`);
    return { mailId: row.id, job: { id, name } };
  });
}

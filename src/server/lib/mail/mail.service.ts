import { JOBS } from '../../../shared/jobs.ts';
import type { Executor } from '../../db/client.ts';
import { insertIntent } from '../jobs/outbox.repository.ts';
import type { TJobRef } from '../jobs/dispatcher.ts';
import { insertMail, type TNewMail } from './mail.repository.ts';

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

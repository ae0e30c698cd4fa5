import { claimForSending, findById, markSent, releaseClaim } from './mail.repository.ts';
import { SMTP_SEND_LIMIT_MS } from './transport.ts';
import type { TJobPayload } from '../../../shared/jobs.ts';
import type { JobContext } from '../jobs/runner.ts';

/**
 * How long a run holds a mail it is sending: longer than the transport lets one send take, so a
 * run still talking to the SMTP server is never joined by a second; a run that died lets go when
 * its hold runs out.
 */
export const MAIL_SENDING_HOLD_MS = SMTP_SEND_LIMIT_MS + 30_000;

/**
 * Delivers one queued mail, once. The mail is claimed before the SMTP server is spoken to, so two
 * runs of one job at once (a worker starved of CPU loses its job lock and another takes the job
 * over while the first still sends) cannot both send it. A mail already delivered is left alone;
 * one another run is sending makes this run fail, to be retried: by then it is delivered, or that
 * run died and its hold ran out.
 */
export async function sendMail(payload: TJobPayload<'sendMail'>, ctx: JobContext): Promise<void> {
  const mail = await claimForSending(ctx.db, payload.mailId, MAIL_SENDING_HOLD_MS);
  if (!mail) {
    const current = await findById(ctx.db, payload.mailId);
    if (!current) ctx.logger.warn({ mailId: payload.mailId }, 'mail to send no longer exists');
    if (!current || current.sentAt || current.text === null) return;
    throw new Error('the mail is being sent by another run of its job');
  }
  let messageId: string;
  try {
    ({ messageId } = await ctx.mail.send({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      text: mail.text!,
      html: mail.html ?? undefined,
    }));
  } catch (err) {
    await releaseClaim(ctx.db, mail.id);
    throw err;
  }
  await markSent(ctx.db, mail.id, messageId);
}

import { findById, markSent } from './mail.repository.ts';
import type { TJobPayload } from '../../../shared/jobs.ts';
import type { JobContext } from '../jobs/runner.ts';

/** Delivers one queued mail; a mail already delivered is left alone, so retries never resend. */
export async function sendMail(payload: TJobPayload<'sendMail'>, ctx: JobContext): Promise<void> {
  const mail = await findById(ctx.db, payload.mailId);
  if (!mail) {
    ctx.logger.warn({ mailId: payload.mailId }, 'mail to send no longer exists');
    return;
  }
  if (mail.sentAt || mail.text === null) return;
  const { messageId } = await ctx.mail.send({
    id: mail.id,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? undefined,
  });
  await markSent(ctx.db, mail.id, messageId);
}

import { MESSAGES } from '../../../shared/messages.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import type { TContactRequest } from '../../../shared/schemas/contact.ts';
import type { AppDeps } from '../../deps.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { throttle, type TRateLimitRule } from '../../lib/rate-limit.ts';

type Deps = Pick<AppDeps, 'db' | 'jobs' | 'logger' | 'rateLimit' | 'site'>;

/** Enough for a visitor with a follow-up or two; too few to use the form as a mail cannon. */
export const CONTACT_LIMIT: TRateLimitRule = { limit: 5, windowMs: 60 * 60_000 };
export const contactKey = (ip: string) => `contact:ip:${ip}`;

/**
 * Delivers a visitor's message to the academy's address (ACADEMY_EMAIL) through the mail job.
 * Nothing is sent to the address the visitor typed, so the form cannot mail third parties.
 */
export async function sendContactMessage(deps: Deps, input: TContactRequest, ip: string): Promise<TMessageResult> {
  await throttle(deps, [[contactKey(ip), CONTACT_LIMIT]], MESSAGES.contact.tooMany);
  const job = await deps.db.transaction((tx) =>
    queueMail(tx, {
      to: deps.site.email,
      subject: `${deps.site.name}: message from ${input.name}`,
      text: [
        `A message from the website's contact form.`,
        '',
        `Name: ${input.name}`,
        `Email: ${input.email}`,
        `Phone: ${input.phone ?? 'not given'}`,
        '',
        input.message,
      ].join('\n'),
    }),
  );
  await deps.jobs.dispatch([job]);
  deps.logger.info({ mailJob: job.id }, 'contact message queued');
  return { message: MESSAGES.contact.sent };
}

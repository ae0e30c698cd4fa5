import { randomBytes } from 'node:crypto';
import { OTP_LENGTH } from '../shared/constants.ts';
import type { TReceivedMail } from './smtp-server.ts';

type Mailbox = { received: TReceivedMail[] };

/** Waits until `count` mails to `to` have arrived and returns them, oldest first. */
export async function mailsTo(smtp: Mailbox, to: string, count = 1, timeoutMs = 15_000): Promise<TReceivedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.received.filter((mail) => mail.to.includes(to));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${to}, got ${found.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The one-time code in a mail's text, as a reader would find it. */
export function codeIn(mail: TReceivedMail): string {
  const match = mail.text.match(new RegExp(`\\b(\\d{${OTP_LENGTH}})\\b`));
  if (!match?.[1]) throw new Error(`no code in mail "${mail.subject}": ${mail.text}`);
  return match[1];
}

/** The code in the newest of `count` mails to `to`. */
export async function latestCode(smtp: Mailbox, to: string, count = 1): Promise<string> {
  const mails = await mailsTo(smtp, to, count);
  return codeIn(mails[mails.length - 1]!);
}

/** An address of its own for each test, so throttling counters never leak between tests. */
export function uniqueIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${Math.max(1, c! % 255)}`;
}

export function uniqueEmail(label = 'seafarer'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { commitDurably } from '../files/durable.ts';

export type TOutgoingMail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
};

export type MailTransport = {
  kind: 'smtp' | 'file';
  send(mail: TOutgoingMail): Promise<{ messageId: string }>;
  close(): void;
};

/**
 * How long the SMTP server may take: to accept the connection, to greet, and to stay silent
 * (nodemailer's own defaults are 2 minutes, 30 seconds and 10 minutes). A send's run holds its
 * mail for longer than all three together (send-mail.job.ts).
 */
const SMTP_TIMEOUTS_MS = { connection: 30_000, greeting: 30_000, socket: 60_000 };
export const SMTP_SEND_LIMIT_MS = SMTP_TIMEOUTS_MS.connection + SMTP_TIMEOUTS_MS.greeting + SMTP_TIMEOUTS_MS.socket;

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file to
 * DATA_DIR/outbox and logged, so the portal works on a machine with no mail server.
 */
export function createMailTransport(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}): MailTransport {
  const { smtpUrl, from, outboxDir, logger } = options;
  // The Message-ID is derived from our row id so a retried delivery can be recognised downstream.
  const envelope = (mail: TOutgoingMail) => ({
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@academy-portal>`,
  });

  if (smtpUrl) {
    const transporter = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: SMTP_TIMEOUTS_MS.connection,
      greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
      socketTimeout: SMTP_TIMEOUTS_MS.socket,
    });
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await transporter.sendMail(envelope(mail));
        return { messageId: info.messageId };
      },
      close: () => transporter.close(),
    };
  }

  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(mail) {
      const info = await transporter.sendMail(envelope(mail));
      await mkdir(outboxDir, { recursive: true });
      const name = `${Date.now()}-${mail.id}.eml`;
      const file = path.join(outboxDir, name);
      await writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      // On the disk before the mail is recorded as sent.
      await commitDurably(`${file}.tmp`, outboxDir, name);
      logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox folder');
      return { messageId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

import { eq } from 'drizzle-orm';
import { mails } from '../../db/schema.ts';
import type { JobContext } from '../jobs/runner.ts';
import { insertMail } from './mail.repository.ts';
import { sendMail } from './send-mail.job.ts';
import type { MailTransport } from './transport.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

test.override({ portalOptions: { smtp: true } });

const it = test.extend('received', { scope: 'file' }, ({ smtp }) => (to: string) => smtp.received.filter((mail) => mail.to.includes(to)));

const address = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`;

// Two runs of one send job at once: what BullMQ does when a worker starved of CPU misses its job
// lock's renewal and another worker (or another slot) takes the job over while the first still sends.
describe('a mail whose send job runs twice at once', () => {
  it('reaches the learner once, through the SMTP server', async ({ db, portal, received, smtp }) => {
    const to = address('twice-at-once');
    const mailId = await insertMail(db, { to, subject: 'Your verification code', text: 'Your code is 482913.' });
    const runs = await Promise.allSettled([sendMail({ mailId }, portal.runtime.jobContext), sendMail({ mailId }, portal.runtime.jobContext)]);
    await smtp.waitFor(to);
    // One run sent it; the other found it held by the first and failed, to be retried.
    expect(runs.filter((run) => run.status === 'fulfilled')).toHaveLength(1);
    const refused = runs.find((run) => run.status === 'rejected');
    expect(String(refused?.reason)).toContain('being sent by another run');
    // The retry finds it delivered and sends nothing (a run returns only once the SMTP server has
    // taken what it sent, and every run has returned).
    await sendMail({ mailId }, portal.runtime.jobContext);
    expect(received(to)).toHaveLength(1);
    const [row] = await db.select().from(mails).where(eq(mails.id, mailId));
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.text).toBeNull();
  });

  it('is sent by the next run when the SMTP server failed the first, and by any run once a dead run’s hold ran out', async ({ db, portal, received, smtp }) => {
    const to = address('after-failure');
    const mailId = await insertMail(db, { to, subject: 'Reset your password', text: 'Your code is 771204.' });
    const failing: MailTransport = { kind: 'smtp', send: () => Promise.reject(new Error('421 service not available')), close: () => undefined };
    const failingContext: JobContext = { ...portal.runtime.jobContext, mail: failing };
    await expect(sendMail({ mailId }, failingContext)).rejects.toThrow('421');
    // The failed run let go of the mail: the retry sends it.
    await sendMail({ mailId }, portal.runtime.jobContext);
    await smtp.waitFor(to);
    expect(received(to)).toHaveLength(1);

    // A run that died while sending holds its mail until its hold runs out; then another sends it.
    const lost = address('dead-run');
    const lostId = await insertMail(db, { to: lost, subject: 'Your certificate', text: 'Attached.' });
    await db.update(mails).set({ sendingUntil: new Date(Date.now() + 60_000) }).where(eq(mails.id, lostId));
    await expect(sendMail({ mailId: lostId }, portal.runtime.jobContext)).rejects.toThrow('being sent by another run');
    expect(received(lost)).toHaveLength(0);
    await db.update(mails).set({ sendingUntil: new Date(Date.now() - 1_000) }).where(eq(mails.id, lostId));
    await sendMail({ mailId: lostId }, portal.runtime.jobContext);
    await smtp.waitFor(lost);
    expect(received(lost)).toHaveLength(1);
  });
});

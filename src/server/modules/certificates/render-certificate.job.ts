import { randomBytes } from 'node:crypto';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TJobPayload } from '../../../shared/jobs.ts';
import { personName } from '../../../shared/names.ts';
import { certificateVerifyPath } from '../../../shared/schemas/certificate.ts';
import type { JobContext } from '../../lib/jobs/runner.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { renderCertificatePdf } from './certificate-document.tsx';
import { claimPdfFile, findDetailsById, markFailed, markReady, type TCertificateDetails } from './certificates.repository.ts';

const AREA = 'certificates';

/** 144 random bits as 36 hex digits, the shape of every stored name: nobody can guess it. */
export function newCertificateFileName(): string {
  return `${randomBytes(18).toString('hex')}.pdf`;
}

/** 24 November 2026: a date nobody reads the wrong way round. */
function printedDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** The certificate's own verification link, its secret code beside the number: it shows the holder's details. */
function verifyUrlOf(ctx: JobContext, certificate: TCertificateDetails): string {
  return `${ctx.publicUrl}${certificateVerifyPath(certificate.number, certificate.verificationCode)}`;
}

function readyMail(ctx: JobContext, certificate: TCertificateDetails) {
  return {
    to: certificate.email,
    subject: `${ctx.site.name}: ${MESSAGES.certificate.readyMailSubject}`,
    text: [
      `Hello ${certificate.firstName},`,
      '',
      `Congratulations on completing ${certificate.courseTitle}. Your certificate ${certificate.number} is ready.`,
      '',
      `Open it from your Certificate Report: ${ctx.publicUrl}/certificate-report`,
      `Anyone you give this link to can confirm it, with your name, the course and the date: ${verifyUrlOf(ctx, certificate)}`,
      '',
      ctx.site.name,
    ].join('\n'),
  };
}

/**
 * Renders a certificate's PDF, stores it and tells the learner, each step safe to repeat:
 * the file's name is fixed on the row before anything is written (a retry writes the same name,
 * replacing a half-done file whole), and the mail is queued in the transaction that marks the
 * certificate ready, only if it was not ready yet. A re-delivered job after success does nothing.
 * The last failed try marks the certificate failed.
 */
export async function renderCertificate(
  payload: TJobPayload<'renderCertificate'>,
  ctx: JobContext,
  attempt: { isLast: boolean },
): Promise<void> {
  const certificate = await findDetailsById(ctx.db, payload.certificateId);
  if (!certificate) {
    ctx.logger.warn({ certificateId: payload.certificateId }, 'certificate to render no longer exists');
    return;
  }
  if (certificate.status === 'ready') return;

  try {
    const name = await claimPdfFile(ctx.db, certificate.id, newCertificateFileName());
    if (!name) throw new Error(`certificate ${certificate.id} vanished while being rendered`);
    const pdf = await renderCertificatePdf({
      academyName: ctx.site.name,
      academyCity: ctx.site.city,
      holderName: personName(certificate),
      indosNo: certificate.indosNo?.trim() || null,
      courseTitle: certificate.courseTitle,
      completedOn: printedDate(certificate.issuedAt),
      number: certificate.number,
      verifyUrl: verifyUrlOf(ctx, certificate),
    });
    await ctx.files.put(AREA, name, pdf);

    const mailJob = await ctx.db.transaction(async (tx) =>
      (await markReady(tx, certificate.id)) ? queueMail(tx, readyMail(ctx, certificate)) : undefined,
    );
    if (mailJob) await ctx.dispatch([mailJob]);
    ctx.logger.info({ certificateId: certificate.id, number: certificate.number, mailed: Boolean(mailJob) }, 'certificate rendered');
  } catch (error) {
    if (attempt.isLast) await markFailed(ctx.db, certificate.id);
    throw error;
  }
}

import { randomBytes } from 'node:crypto';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TJobPayload } from '../../../shared/jobs.ts';
import { certificateVerifyPath } from '../../../shared/schemas/certificate.ts';
import type { JobContext } from '../../lib/jobs/runner.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { renderCertificatePdf, type TCertificateContent } from './certificate-document.tsx';
import { charactersWithoutGlyph } from './certificate-fonts.ts';
import { claimPdfFile, findDetailsById, markFailed, markReady, type TCertificateDetails } from './certificates.repository.ts';

const AREA = 'certificates';
/** The learner's page of certificates (the client's `paths.myCertificates`). */
const MY_CERTIFICATES_PATH = '/my-certificates';

/** 144 random bits as 36 hex digits, the shape of every stored name: nobody can guess it. */
export function newCertificateFileName(): string {
  return `${randomBytes(18).toString('hex')}.pdf`;
}

/** 24 November 2026: a date nobody reads the wrong way round. */
function printedDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** A calendar day (YYYY-MM-DD) printed the same way. */
function printedDay(day: string | null): string | null {
  return day ? printedDate(new Date(`${day}T00:00:00Z`)) : null;
}

/** What the certificate prints, from its own snapshot of the holder and the course's terms, not the profile as it is now. */
function contentOf(ctx: JobContext, certificate: TCertificateDetails): TCertificateContent {
  const printed = (value: string | null) => value?.trim() || null;
  return {
    academyName: ctx.site.name,
    academyCity: ctx.site.city,
    holderName: certificate.holderName,
    indosNo: printed(certificate.holderIndosNo),
    dateOfBirth: printedDay(certificate.holderDateOfBirth),
    passportNumber: printed(certificate.holderPassportNumber),
    courseTitle: certificate.courseTitle,
    courseCode: printed(certificate.courseCode),
    approvalNumber: printed(certificate.approvalNumber),
    number: certificate.number,
    version: certificate.version,
    issuedOn: printedDate(certificate.issuedAt),
    reissuedOn: certificate.reissuedAt ? printedDate(certificate.reissuedAt) : null,
    validUntil: printedDay(certificate.validUntil),
    verifyUrl: verifyUrlOf(ctx, certificate),
  };
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
      certificate.version > 1
        ? `Your certificate ${certificate.number} for ${certificate.courseTitle} has been re-issued as version ${certificate.version}. The earlier version's PDF and link now say it was superseded by this one.`
        : `Congratulations on completing ${certificate.courseTitle}. Your certificate ${certificate.number} is ready.`,
      '',
      `Open it from My certificates: ${ctx.publicUrl}${MY_CERTIFICATES_PATH}`,
      `Anyone you give this link to can confirm it, with your name, the course and the dates: ${verifyUrlOf(ctx, certificate)}`,
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
    const content = contentOf(ctx, certificate);
    const pdf = await renderCertificatePdf(content);
    await ctx.files.put(AREA, name, pdf);
    const missing = await charactersWithoutGlyph(content.holderName);
    if (missing.length > 0) ctx.logger.warn({ certificateId: certificate.id, characters: missing.join('') }, "the certificate's fonts lack characters of the holder's name");

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

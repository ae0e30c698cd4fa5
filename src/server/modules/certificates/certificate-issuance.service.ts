import { randomBytes } from 'node:crypto';
import { JOBS } from '../../../shared/jobs.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestResult } from '../../../shared/schemas/tests.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import { insertIntent } from '../../lib/jobs/outbox.repository.ts';
import { certificateHolder, type THolderDocuments } from '../profiles/profiles.service.ts';
import { certificateTermsOf, coursesRenewedBy } from '../courses/course-certificate.service.ts';
import { validUntilFor } from './certificate-state.ts';
import { findOfLearnerForCourse, insertPending, nextSerial, setRenews, supersedeLive, type TCertificateRow } from './certificates.repository.ts';
import { servedPdfUrl } from './certificates.service.ts';

const C = MESSAGES.certificate;

/* Issuance: a pass earns the certificate (the tests service calls this inside its transaction). */

/** The passing attempt a certificate is issued for. */
export type TPass = { attemptId: string; userId: string; courseId: string };

/** The certificate as a pass's result shows it. */
export type TIssuedCertificate = NonNullable<TTestResult['certificate']>;

/** MTA/{year}/{serial of six digits or more}; the year is the UTC year of issue. */
export function certificateNumber(issuedAt: Date, serial: number): string {
  return `MTA/${issuedAt.getUTCFullYear()}/${String(serial).padStart(6, '0')}`;
}

/**
 * The secret a certificate's QR code and printed link carry (160 random bits, URL-safe): with it,
 * verification shows the holder's details, so it cannot be guessed the way numbers can be walked.
 */
export function newVerificationCode(): string {
  return randomBytes(20).toString('base64url');
}

/**
 * The intent to render the certificate's PDF, keyed on the certificate and its version (the first
 * version on the certificate alone), so a second pass or a retried request never queues it twice
 * while each re-issue gets its own render.
 */
export async function queueCertificateRender(tx: Executor, certificate: { id: string; version: number }): Promise<TJobRef> {
  const name = JOBS.renderCertificate.name;
  const businessKey = certificate.version === 1 ? certificate.id : `${certificate.id}:v${certificate.version}`;
  const id = await insertIntent(tx, { name, businessKey, payload: { certificateId: certificate.id } });
  return { id, name };
}

/** The holder's columns of a certificate version, from the holder's verified documents now, with who verified them. */
export function holderSnapshot(documents: THolderDocuments) {
  return {
    holderName: documents.name,
    holderDateOfBirth: documents.dateOfBirth,
    holderIndosNo: documents.indosNo,
    holderPassportNumber: documents.passportNumber,
    holderCdcNumber: documents.cdcNumber,
    holderVerifiedByName: documents.verifiedByName,
    holderVerifiedAt: documents.verifiedAt,
  };
}

/**
 * The learner's certificate for the course, the first pass's if there is one; else a new pending
 * one, numbered, printing the holder's name and documents as on the profile now and the course's
 * code, approval number and validity. A new certificate of a refresher course supersedes the
 * learner's live certificates of the courses it renews, and names the latest of them.
 */
async function certificateOfPass(tx: Executor, pass: TPass): Promise<TCertificateRow> {
  const existing = await findOfLearnerForCourse(tx, pass.userId, pass.courseId);
  if (existing) return existing;
  const holder = await certificateHolder(tx, pass.userId);
  const terms = await certificateTermsOf(tx, pass.courseId);
  if (!holder || !terms) throw notFound(C.notFound);
  const issuedAt = new Date();
  const serial = await nextSerial(tx);
  const created = await insertPending(tx, {
    userId: pass.userId,
    courseId: pass.courseId,
    attemptId: pass.attemptId,
    number: certificateNumber(issuedAt, serial),
    verificationCode: newVerificationCode(),
    ...holderSnapshot(holder.documents),
    courseCode: terms.code,
    approvalNumber: terms.approvalNumber,
    validUntil: validUntilFor(issuedAt, terms.validityMonths),
  });
  // Another attempt at the course passed at the same moment and its certificate stands.
  if (!created) return (await findOfLearnerForCourse(tx, pass.userId, pass.courseId))!;
  const [renewed] = await supersedeLive(tx, pass.userId, await coursesRenewedBy(tx, pass.courseId), created.id);
  if (renewed) {
    await setRenews(tx, created.id, renewed);
    return { ...created, renewsId: renewed };
  }
  return created;
}

/**
 * Inside the passing attempt's transaction (`tx`, so the pass and its certificate commit together):
 * the learner's certificate for the course, the first pass's if there is one (one per learner and
 * course, a concurrent pass keeps the first), and the intent to render its PDF. Dispatch
 * `renderJob` after the commit.
 */
export async function issueCertificate(tx: Executor, pass: TPass): Promise<{ certificate: TIssuedCertificate; renderJob: TJobRef }> {
  const row = await certificateOfPass(tx, pass);
  const certificate: TIssuedCertificate = {
    id: row.id,
    number: row.number,
    status: row.status,
    issuedAt: row.issuedAt.toISOString(),
    pdfUrl: servedPdfUrl(row),
  };
  return { certificate, renderJob: await queueCertificateRender(tx, row) };
}

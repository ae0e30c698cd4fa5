import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { JOBS } from '../../../shared/jobs.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import type { TTestResult } from '../../../shared/schemas/tests.ts';
import {
  certificatePdfUrl,
  type TAdminCertificate,
  type TCertificateVerification,
  type TLearnerCertificate,
  type TVerifyByHolderRequest,
} from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import { insertIntent } from '../../lib/jobs/outbox.repository.ts';
import { throttle, type TRateLimitRule } from '../../lib/rate-limit.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { isStoredName } from '../../lib/files/storage.ts';
import { certificateHolder, profileMatches } from '../profiles/profiles.service.ts';
import { certificateTermsOf, coursesRenewedBy } from '../courses/course-certificate.service.ts';
import { validUntilFor } from './certificate-state.ts';
import {
  findById,
  findByPdfFile,
  findDetailsById,
  findDetailsByNumber,
  findDetailsIssuedBetween,
  findOfLearner,
  findOfLearnerForCourse,
  findPdfFileNames,
  insertPending,
  nextSerial,
  revoke,
  setRenews,
  supersedeLive,
  type TCertificateDetails,
  type TCertificateRow,
} from './certificates.repository.ts';

const C = MESSAGES.certificate;
type Deps = Pick<AppDeps, 'db' | 'logger'>;

/** Every check from one address: enough for an employer checking a crew list; too few to walk the number space. */
export const VERIFY_LIMIT: TRateLimitRule = { limit: 30, windowMs: 60_000 };
export const verifyKey = (ip: string) => `certificate-verify:ip:${ip}`;

/**
 * Checks without the code (the number alone, or with a holder detail) from all addresses together:
 * a walk from many addresses stays slow, while whoever holds the QR code is never held back.
 */
export const VERIFY_NUMBER_LIMITS: ReadonlyArray<readonly [key: string, rule: TRateLimitRule]> = [
  ['certificate-verify:by-number:minute', { limit: 120, windowMs: 60_000 }],
  ['certificate-verify:by-number:hour', { limit: 1_200, windowMs: 60 * 60_000 }],
];

/** Holder checks (date of birth, INDOS number) of one certificate, right or wrong: too few to guess a birthday. */
export const VERIFY_HOLDER_LIMIT: TRateLimitRule = { limit: 10, windowMs: 60 * 60_000 };
export const verifyHolderKey = (number: string) => `certificate-verify:holder:${number}`;

/** A ready PDF that is not revoked is the only one anybody is shown the address of. */
function servedPdfUrl(row: Pick<TCertificateRow, 'status' | 'pdfFile' | 'revokedAt'>): string | null {
  return row.status === 'ready' && row.pdfFile && !row.revokedAt ? certificatePdfUrl(row.pdfFile) : null;
}

// ---------------------------------------------------------------------------------------------
// Issuance: a pass earns the certificate (the tests service calls this inside its transaction)

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
 * The intent to render the certificate's PDF, keyed on the certificate, so a second pass or a
 * retried request never queues it twice.
 */
async function queueCertificateRender(tx: Executor, certificateId: string): Promise<TJobRef> {
  const name = JOBS.renderCertificate.name;
  const id = await insertIntent(tx, { name, businessKey: certificateId, payload: { certificateId } });
  return { id, name };
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
    holderName: holder.documents.name,
    holderDateOfBirth: holder.documents.dateOfBirth,
    holderIndosNo: holder.documents.indosNo,
    holderPassportNumber: holder.documents.passportNumber,
    holderCdcNumber: holder.documents.cdcNumber,
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
  return { certificate, renderJob: await queueCertificateRender(tx, row.id) };
}

// ---------------------------------------------------------------------------------------------
// Reading, verification, revocation and serving

/** A certificate as administrators see it beside a result. */
export function toAdminCertificate(row: Pick<TCertificateRow, 'id' | 'number' | 'status' | 'pdfFile' | 'revokedAt'>): TAdminCertificate {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    pdfUrl: servedPdfUrl(row),
  };
}

function toLearnerCertificate(row: TCertificateRow & { courseTitle: string }): TLearnerCertificate {
  return {
    id: row.id,
    number: row.number,
    course: { id: row.courseId, title: row.courseTitle },
    issuedAt: row.issuedAt.toISOString(),
    status: row.status,
    revoked: row.revokedAt !== null,
    pdfUrl: servedPdfUrl(row),
    verificationCode: row.verificationCode,
  };
}

/** The caller's own certificates, oldest first. */
export async function myCertificates(deps: Deps, user: TSessionUser): Promise<TLearnerCertificate[]> {
  return (await findOfLearner(deps.db, user.id)).map(toLearnerCertificate);
}

/**
 * The caller's certificate for a course. Someone else's certificate is never looked at: the
 * lookup is by the caller's id, so another learner's course answers like one with none.
 */
export async function certificateForCourse(deps: Deps, user: TSessionUser, courseId: string): Promise<TLearnerCertificate> {
  const [row] = await findOfLearner(deps.db, user.id, courseId);
  if (!row) throw notFound(C.notFound);
  return toLearnerCertificate(row);
}

/** GET /certificate/{courseId}: the PDF's file name once it is ready; not found otherwise. */
export async function readyCertificateFile(deps: Deps, user: TSessionUser, courseId: string): Promise<string> {
  const [row] = await findOfLearner(deps.db, user.id, courseId);
  if (!row || !servedPdfUrl(row)) throw notFound(C.notFound);
  return row.pdfFile!;
}

/** The first letter of a name part, whatever its script: a whole code point that is a letter or digit. */
function initialOf(part: string): string {
  const letter = /[\p{L}\p{N}]/u.exec(part)?.[0] ?? '';
  return letter.toLocaleUpperCase();
}

/**
 * The holder's name as a number alone shows it: the first given name's initial and the surname's
 * first letter, "A. M***". A name of one word shows its initial alone ("S***"); when the first
 * name holds the whole name, its last word stands for the surname.
 */
export function maskedHolderName(person: { firstName: string; lastName: string }): string {
  const given = person.firstName.trim().split(/\s+/).filter(Boolean);
  const family = person.lastName.trim();
  const first = given[0];
  const surname = family || (given.length > 1 ? given[given.length - 1]! : '');
  if (first && surname) return `${initialOf(first)}. ${initialOf(surname)}***`;
  return `${initialOf(first ?? family)}***`;
}

/** Equal secrets, compared in constant time (hashes first, so the lengths match too). */
function sameSecret(given: string, stored: string): boolean {
  const hash = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(hash(given), hash(stored));
}

function fullVerification(row: TCertificateDetails): TCertificateVerification {
  return {
    detail: 'full',
    number: row.number,
    state: row.revokedAt ? 'revoked' : 'valid',
    holderName: personName(row),
    courseTitle: row.courseTitle,
    issuedAt: row.issuedAt.toISOString(),
  };
}

function maskedVerification(row: TCertificateDetails): TCertificateVerification {
  return { detail: 'masked', number: row.number, state: row.revokedAt ? 'revoked' : 'valid', maskedName: maskedHolderName(row) };
}

type VerifyDeps = Pick<AppDeps, 'db' | 'logger' | 'rateLimit'>;

/**
 * /verify/{number} and /verify/{number}?code={code}. With the certificate's code (the QR code and
 * the printed link carry it): valid or revoked, the holder's name, the course and the date of
 * issue. With the number alone, or a code that is not this certificate's: only that it exists, its
 * state and the masked name. Every check counts per address; one without the right code also
 * counts across all addresses, so the numbers cannot be walked from many of them.
 */
export async function verifyCertificate(deps: VerifyDeps, input: { number: string; code?: string | undefined }, ip: string): Promise<TCertificateVerification> {
  await throttle(deps, [[verifyKey(ip), VERIFY_LIMIT]], C.tooManyLookups);
  const row = await findDetailsByNumber(deps.db, input.number);
  if (row && input.code && sameSecret(input.code, row.verificationCode)) return fullVerification(row);
  await throttle(deps, VERIFY_NUMBER_LIMITS, C.tooManyNumberLookups);
  if (!row) throw notFound(C.unknownNumber);
  return maskedVerification(row);
}

/**
 * The number with the holder's date of birth or INDOS number (from their profile): the details
 * when every given one matches; otherwise exactly what the number alone answers. Each check of a
 * number counts, right or wrong, on that number as well as per address and across all addresses.
 */
export async function verifyCertificateByHolder(deps: VerifyDeps, input: TVerifyByHolderRequest, ip: string): Promise<TCertificateVerification> {
  await throttle(deps, [[verifyKey(ip), VERIFY_LIMIT]], C.tooManyLookups);
  await throttle(deps, [[verifyHolderKey(input.number), VERIFY_HOLDER_LIMIT]], C.tooManyHolderChecks);
  await throttle(deps, VERIFY_NUMBER_LIMITS, C.tooManyNumberLookups);
  const row = await findDetailsByNumber(deps.db, input.number);
  if (!row) throw notFound(C.unknownNumber);
  const given = { dateOfBirth: input.dateOfBirth, indosNo: input.indosNo };
  return (await profileMatches(deps, row.userId, given)) ? fullVerification(row) : maskedVerification(row);
}

/** An administrator withdraws a certificate: verification says revoked and the PDF is no longer served. */
export async function revokeCertificate(
  deps: Deps,
  admin: { id: string },
  input: { certificateId: string; reason?: string | undefined },
): Promise<TAdminCertificate> {
  const reason = input.reason?.trim() || null;
  const revoked = await revoke(deps.db, input.certificateId, { by: admin.id, reason });
  if (!revoked) {
    if (await findById(deps.db, input.certificateId)) throw new AppError('CONFLICT', C.alreadyRevoked);
    throw notFound(C.notFound);
  }
  deps.logger.info({ certificateId: revoked.id, number: revoked.number, by: admin.id }, 'certificate revoked');
  return toAdminCertificate(revoked);
}

/**
 * The PDF behind /certificates/{filename}: whoever holds the unguessable name may read it while
 * it is ready; a revoked certificate's is gone for good, an unknown name is not found.
 */
export async function certificatePdf(deps: Deps, filename: string): Promise<{ state: 'ready'; name: string; number: string } | { state: 'revoked' }> {
  if (!isStoredName(filename) || !filename.endsWith('.pdf')) throw notFound(C.notFound);
  const row = await findByPdfFile(deps.db, filename);
  if (!row || row.status !== 'ready') throw notFound(C.notFound);
  if (row.revokedAt) return { state: 'revoked' };
  return { state: 'ready', name: filename, number: row.number };
}

/** Which PDFs rows point to, for the sweep of left-over files. */
export function storedCertificateFileNames(deps: Pick<AppDeps, 'db'>): Promise<ReadonlySet<string>> {
  return findPdfFileNames(deps.db);
}

/** A certificate with its holder and course, as the auditor's evidence names them. */
export type TCertificateOfHolder = {
  id: string;
  number: string;
  userId: string;
  courseId: string;
  holderName: string;
  email: string;
  courseTitle: string;
  issuedAt: Date;
  revokedAt: Date | null;
  revokeReason: string | null;
};

function ofHolder(row: TCertificateDetails): TCertificateOfHolder {
  return {
    id: row.id,
    number: row.number,
    userId: row.userId,
    courseId: row.courseId,
    holderName: personName(row),
    email: row.email,
    courseTitle: row.courseTitle,
    issuedAt: row.issuedAt,
    revokedAt: row.revokedAt,
    revokeReason: row.revokeReason,
  };
}

export async function certificateOfHolder(deps: Pick<AppDeps, 'db'>, certificateId: string): Promise<TCertificateOfHolder | undefined> {
  const row = await findDetailsById(deps.db, certificateId);
  return row && ofHolder(row);
}

/** A course's certificates issued from `from` up to (not including) `to`, oldest first. */
export async function certificatesIssuedBetween(deps: Pick<AppDeps, 'db'>, courseId: string, from: Date, to: Date): Promise<TCertificateOfHolder[]> {
  return (await findDetailsIssuedBetween(deps.db, courseId, from, to)).map(ofHolder);
}

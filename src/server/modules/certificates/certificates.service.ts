import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { JOBS } from '../../../shared/jobs.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import type { TTestResult } from '../../../shared/schemas/tests.ts';
import { utcDay } from '../../../shared/calendar.ts';
import {
  certificatePdfUrl,
  type TAdminCertificate,
  type TAdminCertificateRow,
  type TCertificateState,
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
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { isStoredName } from '../../lib/files/storage.ts';
import { certificateHolder, profileMatches, type THolderDocuments } from '../profiles/profiles.service.ts';
import { certificateTermsOf, coursesRenewedBy } from '../courses/course-certificate.service.ts';
import { certificateState, expiringWindowDays, validUntilFor, type TStateFacts } from './certificate-state.ts';
import {
  findById,
  findByPdfFile,
  findDetailsById,
  findDetailsIssuedBetween,
  findLatestReminders,
  findLinkedByIds,
  findLinkedByNumber,
  findLinkedOfLearner,
  findOfLearner,
  findOfLearnerForCourse,
  findPdfFileNames,
  findVersionByPdfFile,
  findVersionsOf,
  insertPending,
  insertVersion,
  lockById,
  nextSerial,
  replaceVersion,
  revoke,
  setRenews,
  supersedeLive,
  type TCertificateDetails,
  type TCertificateRow,
  type TLinkedCertificate,
} from './certificates.repository.ts';

const C = MESSAGES.certificate;
const A = MESSAGES.certificateAdmin;
type Deps = Pick<AppDeps, 'db' | 'logger'>;
/** What reading a certificate's state needs: the reminder days setting gives the expiring window. */
type StateDeps = Pick<AppDeps, 'db' | 'logger' | 'env'>;

/** The state of certificates on today's UTC day, the window from the reminder days setting. */
function stateReader(env: Pick<AppDeps['env'], 'CERTIFICATE_REMINDER_DAYS'>): (facts: TStateFacts) => TCertificateState {
  const today = utcDay();
  const windowDays = expiringWindowDays(env.CERTIFICATE_REMINDER_DAYS);
  return (facts) => certificateState(facts, today, windowDays);
}

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
 * The intent to render the certificate's PDF, keyed on the certificate and its version (the first
 * version on the certificate alone), so a second pass or a retried request never queues it twice
 * while each re-issue gets its own render.
 */
async function queueCertificateRender(tx: Executor, certificate: { id: string; version: number }): Promise<TJobRef> {
  const name = JOBS.renderCertificate.name;
  const businessKey = certificate.version === 1 ? certificate.id : `${certificate.id}:v${certificate.version}`;
  const id = await insertIntent(tx, { name, businessKey, payload: { certificateId: certificate.id } });
  return { id, name };
}

/** The holder's columns of a certificate version, from the holder's verified documents now, with who verified them. */
function holderSnapshot(documents: THolderDocuments) {
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

function toLearnerCertificate(row: TLinkedCertificate, state: TCertificateState): TLearnerCertificate {
  return {
    id: row.id,
    number: row.number,
    version: row.version,
    course: { id: row.courseId, title: row.courseTitle, code: row.courseCode },
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil,
    state,
    status: row.status,
    revoked: row.revokedAt !== null,
    revokeReason: row.revokeReason,
    supersededBy: row.supersededBy,
    renews: row.renews,
    refresher: row.refresher,
    pdfUrl: servedPdfUrl(row),
    verificationCode: row.verificationCode,
  };
}

/** The caller's own certificates, oldest first (one query, however many there are). */
export async function myCertificates(deps: StateDeps, user: TSessionUser): Promise<TLearnerCertificate[]> {
  const stateOf = stateReader(deps.env);
  return (await findLinkedOfLearner(deps.db, user.id)).map((row) => toLearnerCertificate(row, stateOf(row)));
}

/**
 * The caller's certificate for a course. Someone else's certificate is never looked at: the
 * lookup is by the caller's id, so another learner's course answers like one with none.
 */
export async function certificateForCourse(deps: StateDeps, user: TSessionUser, courseId: string): Promise<TLearnerCertificate> {
  const [row] = await findLinkedOfLearner(deps.db, user.id, courseId);
  if (!row) throw notFound(C.notFound);
  return toLearnerCertificate(row, stateReader(deps.env)(row));
}

/** GET /certificate/{courseId}: the PDF's file name once it is ready; not found otherwise. */
export async function readyCertificateFile(deps: Deps, user: TSessionUser, courseId: string): Promise<string> {
  const [row] = await findOfLearner(deps.db, user.id, courseId);
  if (!row || !servedPdfUrl(row)) throw notFound(C.notFound);
  return row.pdfFile!;
}

/**
 * A certificate as the administrators' list shows it (`lastReminder`: the latest expiry reminder
 * sent, if any). The holder is as the current version prints them.
 */
export function toAdminCertificateRow(
  row: TLinkedCertificate,
  state: TCertificateState,
  lastReminder: { daysBefore: number; at: Date } | null | undefined,
): TAdminCertificateRow {
  return {
    id: row.id,
    number: row.number,
    version: row.version,
    state,
    status: row.status,
    pdfUrl: servedPdfUrl(row),
    holder: { userId: row.userId, name: row.holderName, email: row.email, indosNo: row.holderIndosNo },
    course: { id: row.courseId, title: row.courseTitle, code: row.courseCode },
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokeReason: row.revokeReason,
    supersededBy: row.supersededBy,
    lastReminder: lastReminder ? { daysBefore: lastReminder.daysBefore, at: lastReminder.at.toISOString() } : null,
  };
}

/**
 * The administrators' rows of the certificates `ids`, in the order given (ids of no certificate
 * are left out): two queries, however many ids.
 */
export async function adminCertificateRows(deps: Pick<AppDeps, 'db' | 'env'>, ids: readonly string[]): Promise<TAdminCertificateRow[]> {
  const [rows, reminders] = await Promise.all([findLinkedByIds(deps.db, ids), findLatestReminders(deps.db, ids)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const stateOf = stateReader(deps.env);
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toAdminCertificateRow(row, stateOf(row), reminders.get(id))] : [];
  });
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

/** The holder's name, course, dates and links, as the certificate's current version prints them. */
function fullVerification(row: TLinkedCertificate, state: TCertificateState): TCertificateVerification {
  return {
    detail: 'full',
    number: row.number,
    version: row.version,
    state,
    holderName: row.holderName,
    courseTitle: row.courseTitle,
    courseCode: row.courseCode,
    approvalNumber: row.approvalNumber,
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil,
    supersededBy: row.supersededBy,
    renews: row.renews,
  };
}

function maskedVerification(row: TLinkedCertificate, state: TCertificateState): TCertificateVerification {
  return {
    detail: 'masked',
    number: row.number,
    state,
    maskedName: maskedHolderName({ firstName: row.holderName, lastName: '' }),
    issuedAt: row.issuedAt.toISOString(),
    validUntil: row.validUntil,
  };
}

/** The earlier version of `row` whose code is `code`, if a re-issue replaced one. */
async function earlierVersionWithCode(db: Executor, row: TLinkedCertificate, code: string): Promise<number | undefined> {
  if (row.version === 1) return undefined;
  const versions = await findVersionsOf(db, row.id);
  // Every version is compared, so the time taken says nothing about which one matched.
  const matches = versions.filter((version) => sameSecret(code, version.verificationCode));
  return matches[0]?.version;
}

type VerifyDeps = Pick<AppDeps, 'db' | 'logger' | 'rateLimit' | 'env'>;

/**
 * /verify/{number} and /verify/{number}?code={code}. With the certificate's code (the QR code and
 * the printed link carry it): its state, the holder's name as printed, the course with its code
 * and approval number, the dates, the version and the certificates it links to. With an earlier
 * version's code: that a re-issue superseded that version, and by which. With the number alone, or
 * a code of no version of it: only that it exists, its state, its dates and the masked name.
 * Every check counts per address; one without a code of the certificate also counts across all
 * addresses, so the numbers cannot be walked from many of them.
 */
export async function verifyCertificate(deps: VerifyDeps, input: { number: string; code?: string | undefined }, ip: string): Promise<TCertificateVerification> {
  await throttle(deps, [[verifyKey(ip), VERIFY_LIMIT]], C.tooManyLookups);
  const row = await findLinkedByNumber(deps.db, input.number);
  if (row && input.code) {
    if (sameSecret(input.code, row.verificationCode)) return fullVerification(row, stateReader(deps.env)(row));
    const version = await earlierVersionWithCode(deps.db, row, input.code);
    if (version !== undefined) return { detail: 'superseded-version', number: row.number, version, currentVersion: row.version };
  }
  await throttle(deps, VERIFY_NUMBER_LIMITS, C.tooManyNumberLookups);
  if (!row) throw notFound(C.unknownNumber);
  return maskedVerification(row, stateReader(deps.env)(row));
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
  const row = await findLinkedByNumber(deps.db, input.number);
  if (!row) throw notFound(C.unknownNumber);
  const given = { dateOfBirth: input.dateOfBirth, indosNo: input.indosNo };
  const state = stateReader(deps.env)(row);
  return (await profileMatches(deps, row.userId, given)) ? fullVerification(row, state) : maskedVerification(row, state);
}

/** What a re-issue's audit entry keeps of a version: its number and the holder's values printed on it. */
function auditedVersion(row: TCertificateRow) {
  return {
    number: row.number,
    version: row.version,
    holderName: row.holderName,
    holderDateOfBirth: row.holderDateOfBirth,
    holderIndosNo: row.holderIndosNo,
    holderPassportNumber: row.holderPassportNumber,
    holderCdcNumber: row.holderCdcNumber,
  };
}

/** An administrator withdraws a certificate: verification says revoked and the PDF is no longer served. */
export async function revokeCertificate(
  deps: Deps,
  actor: TStaffActor,
  input: { certificateId: string; reason?: string | undefined },
): Promise<TAdminCertificate> {
  const reason = input.reason?.trim() || null;
  const revoked = await deps.db.transaction(async (tx) => {
    const row = await revoke(tx, input.certificateId, { by: actor.id, reason });
    if (row) {
      await recordAudit(tx, actorOfStaff(actor), {
        action: 'certificate.revoke',
        subjectType: 'certificate',
        subjectId: row.id,
        learnerId: row.userId,
        before: { number: row.number, revokedAt: null },
        after: { number: row.number, revokedAt: row.revokedAt, reason },
      });
    }
    return row;
  });
  if (!revoked) {
    if (await findById(deps.db, input.certificateId)) throw new AppError('CONFLICT', C.alreadyRevoked);
    throw notFound(C.notFound);
  }
  deps.logger.info({ certificateId: revoked.id, number: revoked.number, by: actor.id }, 'certificate revoked');
  return toAdminCertificate(revoked);
}

/**
 * An administrator re-issues a live certificate whose PDF is ready (after a name correction on the
 * profile): the same number, issue date, validity and course terms; a new version printed from the
 * holder's documents as they are now, with a new verification code and a new PDF (rendered by the
 * job queued here). The version it replaces is kept, its code and PDF answering "superseded by
 * version N". The row is locked meanwhile: of two re-issues at once, the second finds the new
 * version's PDF not ready yet and is refused, so one click makes one version.
 */
export async function reissueCertificate(
  deps: Pick<AppDeps, 'db' | 'logger' | 'jobs' | 'env'>,
  actor: TStaffActor,
  certificateId: string,
): Promise<{ message: string; certificate: TAdminCertificateRow }> {
  const { row, renderJob } = await deps.db.transaction(async (tx) => {
    const current = await lockById(tx, certificateId);
    if (!current) throw notFound(C.notFound);
    if (current.revokedAt) throw new AppError('CONFLICT', A.cannotReissueRevoked);
    if (current.supersededAt) throw new AppError('CONFLICT', A.cannotReissueSuperseded);
    if (current.status !== 'ready' || !current.pdfFile) throw new AppError('CONFLICT', A.cannotReissuePending);
    const holder = await certificateHolder(tx, current.userId);
    if (!holder) throw notFound(C.notFound);
    await insertVersion(tx, {
      certificateId: current.id,
      version: current.version,
      verificationCode: current.verificationCode,
      pdfFile: current.pdfFile,
      holderName: current.holderName,
      holderDateOfBirth: current.holderDateOfBirth,
      holderIndosNo: current.holderIndosNo,
      holderPassportNumber: current.holderPassportNumber,
      holderCdcNumber: current.holderCdcNumber,
      holderVerifiedByName: current.holderVerifiedByName,
      holderVerifiedAt: current.holderVerifiedAt,
      madeAt: current.reissuedAt ?? current.issuedAt,
      replacedBy: actor.id,
    });
    const next = await replaceVersion(tx, current.id, {
      version: current.version + 1,
      verificationCode: newVerificationCode(),
      ...holderSnapshot(holder.documents),
    });
    const renderJob = await queueCertificateRender(tx, next);
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'certificate.reissue',
      subjectType: 'certificate',
      subjectId: current.id,
      learnerId: current.userId,
      before: auditedVersion(current),
      after: auditedVersion(next),
    });
    return { row: next, renderJob };
  });
  await deps.jobs.dispatch([renderJob]);
  deps.logger.info({ certificateId: row.id, number: row.number, version: row.version, by: actor.id }, 'certificate re-issued');
  const [certificate] = await adminCertificateRows(deps, [row.id]);
  return { message: A.reissued(row.version), certificate: certificate! };
}

/** What /certificates/{filename} serves: the PDF, or why it no longer does. */
export type TCertificatePdf =
  | { state: 'ready'; name: string; number: string }
  | { state: 'revoked' }
  /** An earlier version's PDF: a re-issue replaced it with `currentVersion`. */
  | { state: 'superseded-version'; currentVersion: number };

/**
 * The PDF behind /certificates/{filename}: whoever holds the unguessable name may read it while
 * it is ready; a revoked certificate's is gone for good, and so is an earlier version's (it says
 * which version replaced it); an unknown name is not found.
 */
export async function certificatePdf(deps: Deps, filename: string): Promise<TCertificatePdf> {
  if (!isStoredName(filename) || !filename.endsWith('.pdf')) throw notFound(C.notFound);
  const row = await findByPdfFile(deps.db, filename);
  if (!row) {
    const earlier = await findVersionByPdfFile(deps.db, filename);
    if (!earlier) throw notFound(C.notFound);
    if (earlier.certificate.revokedAt) return { state: 'revoked' };
    return { state: 'superseded-version', currentVersion: earlier.certificate.version };
  }
  if (row.status !== 'ready') throw notFound(C.notFound);
  if (row.revokedAt) return { state: 'revoked' };
  return { state: 'ready', name: filename, number: row.number };
}

/** Which PDFs rows point to, earlier versions' too (their addresses still answer), for the sweep of left-over files. */
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

import { randomBytes } from 'node:crypto';
import { JOBS } from '../../../shared/jobs.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import {
  certificatePdfUrl,
  type TAdminCertificate,
  type TCertificateVerification,
  type TLearnerCertificate,
} from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import { insertIntent } from '../../lib/jobs/outbox.repository.ts';
import { throttle, type TRateLimitRule } from '../../lib/rate-limit.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { isStoredName } from '../../lib/files/storage.ts';
import {
  findById,
  findByPdfFile,
  findDetailsByNumber,
  findOfLearner,
  findPdfFileNames,
  revoke,
  type TCertificateRow,
} from './certificates.repository.ts';

const C = MESSAGES.certificate;
type Deps = Pick<AppDeps, 'db' | 'logger'>;

/**
 * The secret a certificate's QR code and printed link carry (160 random bits, URL-safe): with it,
 * verification shows the holder's details, so it cannot be guessed the way numbers can be walked.
 */
export function newVerificationCode(): string {
  return randomBytes(20).toString('base64url');
}

/** Enough for an employer checking a crew list; too few to walk the number space. */
export const VERIFY_LIMIT: TRateLimitRule = { limit: 30, windowMs: 60_000 };
export const verifyKey = (ip: string) => `certificate-verify:ip:${ip}`;

/** A ready PDF that is not revoked is the only one anybody is shown the address of. */
function servedPdfUrl(row: Pick<TCertificateRow, 'status' | 'pdfFile' | 'revokedAt'>): string | null {
  return row.status === 'ready' && row.pdfFile && !row.revokedAt ? certificatePdfUrl(row.pdfFile) : null;
}

/**
 * Inside the passing attempt's transaction: the intent to render the certificate's PDF, keyed on
 * the certificate, so a second pass or a retried request never queues it twice. Dispatch the job
 * after the commit.
 */
export async function queueCertificateRender(tx: Executor, certificateId: string): Promise<TJobRef> {
  const name = JOBS.renderCertificate.name;
  const id = await insertIntent(tx, { name, businessKey: certificateId, payload: { certificateId } });
  return { id, name };
}

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

/** The PDF's address for a learner's own certificate, when it can be opened. */
export function certificatePdfUrlOf(row: Pick<TCertificateRow, 'status' | 'pdfFile' | 'revokedAt'>): string | null {
  return servedPdfUrl(row);
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

/**
 * /verify/{number}: valid or revoked, the holder's name, the course and the date of issue,
 * nothing more; throttled per address so the numbers cannot be walked.
 */
export async function verifyCertificate(
  deps: Pick<AppDeps, 'db' | 'logger' | 'rateLimit'>,
  number: string,
  ip: string,
): Promise<TCertificateVerification> {
  await throttle(deps, [[verifyKey(ip), VERIFY_LIMIT]], C.tooManyLookups);
  const row = await findDetailsByNumber(deps.db, number);
  if (!row) throw notFound(C.unknownNumber);
  return {
    number: row.number,
    state: row.revokedAt ? 'revoked' : 'valid',
    holderName: personName(row),
    courseTitle: row.courseTitle,
    issuedAt: row.issuedAt.toISOString(),
  };
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

import {
  certificatePdfUrl,
  type TAdminCertificate,
  type TAdminCertificateRow,
  type TCertificateState,
  type TLearnerCertificate,
} from '../../../shared/schemas/certificate.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { utcDay } from '../../../shared/calendar.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { certificateState, expiringWindowDays, type TStateFacts } from './certificate-state.ts';
import { findLatestReminders, findLinkedByIds, findLinkedOfLearner, findOfLearner, type TCertificateRow, type TLinkedCertificate } from './certificates.repository.ts';

/*
 * Certificates as their holders and the administrators read them. The other parts of the module:
 * issuance on a pass (certificate-issuance.service.ts), public verification with its limits
 * (certificate-verification.service.ts), revocation and re-issue (certificate-reissue.service.ts),
 * the PDF's address (certificate-serving.service.ts) and the auditor's evidence
 * (certificate-evidence.service.ts).
 */

const C = MESSAGES.certificate;
type Deps = Pick<AppDeps, 'db' | 'logger'>;
/** What reading a certificate's state needs: the reminder days setting gives the expiring window. */
type StateDeps = Pick<AppDeps, 'db' | 'logger' | 'env'>;

/** The state of certificates on today's UTC day, the window from the reminder days setting. */
export function stateReader(env: Pick<AppDeps['env'], 'CERTIFICATE_REMINDER_DAYS'>): (facts: TStateFacts) => TCertificateState {
  const today = utcDay();
  const windowDays = expiringWindowDays(env.CERTIFICATE_REMINDER_DAYS);
  return (facts) => certificateState(facts, today, windowDays);
}

/** A ready PDF that is not revoked is the only one anybody is shown the address of. */
export function servedPdfUrl(row: Pick<TCertificateRow, 'status' | 'pdfFile' | 'revokedAt'>): string | null {
  return row.status === 'ready' && row.pdfFile && !row.revokedAt ? certificatePdfUrl(row.pdfFile) : null;
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


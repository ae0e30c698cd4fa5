import { MESSAGES } from '../../../shared/messages.ts';
import type { TCertificateEvidence, TEvidenceExportQuery, TEvidenceOfCertificate } from '../../../shared/schemas/evidence.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, auditOfCertificate, recordDownload } from '../audit/audit.service.ts';
import { attemptEvidence } from '../tests/tests.service.ts';
import { certificateOfHolder, certificatesIssuedBetween, type TCertificateOfHolder } from '../certificates/certificate-evidence.service.ts';
import { watchEvidence } from '../training/training.service.ts';

type Deps = Pick<AppDeps, 'db'>;

const iso = (date: Date | null) => date?.toISOString() ?? null;
const tenths = (seconds: number) => Math.round(seconds * 10) / 10;

async function evidenceOf(deps: Deps, certificate: TCertificateOfHolder): Promise<TEvidenceOfCertificate> {
  const [watching, attempts] = await Promise.all([
    watchEvidence(deps, certificate.userId, certificate.courseId),
    attemptEvidence(deps, certificate.userId, certificate.courseId),
  ]);
  return {
    certificate: {
      id: certificate.id,
      number: certificate.number,
      issuedAt: certificate.issuedAt.toISOString(),
      revokedAt: iso(certificate.revokedAt),
      revokeReason: certificate.revokeReason,
    },
    holder: { name: certificate.holderName, email: certificate.email },
    course: { id: certificate.courseId, title: certificate.courseTitle },
    parts: watching.parts.map((part) => ({
      serial: part.serial,
      title: part.title,
      durationSeconds: part.durationSeconds,
      firstWatchedAt: iso(part.firstWatchedAt),
      lastWatchedAt: iso(part.lastWatchedAt),
      watchedSeconds: tenths(part.watchedSeconds),
      timedSeconds: tenths(part.observedSeconds),
      completedAt: iso(part.completedAt),
      refusals: part.refusals.map((refusal) => ({ ...refusal, at: refusal.at.toISOString(), creditedSeconds: tenths(refusal.creditedSeconds) })),
    })),
    attempts: attempts.map((attempt, index) => ({
      number: index + 1,
      startedAt: attempt.startedAt.toISOString(),
      submittedAt: iso(attempt.submittedAt),
      score: attempt.score,
      totalQuestions: attempt.totalQuestions,
      percentage: attempt.percentage,
      passed: attempt.passed,
      questions: attempt.questions,
    })),
  };
}

/** One certificate's evidence for an auditor (administrators): the watching, every attempt, every refused report. */
export async function certificateEvidence(deps: Deps, certificateId: string): Promise<TCertificateEvidence> {
  const certificate = await certificateOfHolder(deps, certificateId);
  if (!certificate) throw new AppError('NOT_FOUND', MESSAGES.evidence.notFound);
  const [evidence, audit] = await Promise.all([evidenceOf(deps, certificate), auditOfCertificate(deps, certificateId)]);
  return { ...evidence, audit };
}

/**
 * The evidence of every certificate of a course issued on the days from `from` to `to` (inclusive,
 * UTC), a few certificates at a time. The certificates are found before the answer starts, so a
 * failure there is an error, never a file cut short.
 */
export async function evidenceOfCourse(deps: Deps, query: TEvidenceExportQuery): Promise<AsyncIterable<TEvidenceOfCertificate[]>> {
  const from = new Date(`${query.from}T00:00:00Z`);
  const to = new Date(`${query.to}T00:00:00Z`);
  to.setUTCDate(to.getUTCDate() + 1);
  const certificates = await certificatesIssuedBetween(deps, query.courseId, from, to);
  async function* batches() {
    // Each is a handful of small queries, and the file goes out as it is written.
    for (let index = 0; index < certificates.length; index += 20) {
      yield await Promise.all(certificates.slice(index, index + 20).map((certificate) => evidenceOf(deps, certificate)));
    }
  }
  return batches();
}

/** A member of staff downloads the evidence behind a course’s certificates: its audit entry (the filters used, the rows sent) commits before the bytes go out. */
export async function recordEvidenceDownload(
  deps: Pick<AppDeps, 'db'>,
  actor: TStaffActor,
  download: { action: string; filters: Record<string, unknown>; rows?: number | null },
): Promise<void> {
  await recordDownload(deps.db, actorOfStaff(actor), download);
}

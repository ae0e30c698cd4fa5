import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminCertificate, TAdminCertificateRow } from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { certificateHolder } from '../profiles/profiles.service.ts';
import { holderSnapshot, newVerificationCode, queueCertificateRender } from './certificate-issuance.service.ts';
import { findById, insertVersion, lockById, replaceVersion, revoke, type TCertificateRow } from './certificates.repository.ts';
import { adminCertificateRows, toAdminCertificate } from './certificates.service.ts';

const C = MESSAGES.certificate;
const A = MESSAGES.certificateAdmin;
type Deps = Pick<AppDeps, 'db' | 'logger'>;

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

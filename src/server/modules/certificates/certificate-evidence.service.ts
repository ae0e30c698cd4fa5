import { personName } from '../../../shared/names.ts';
import type { AppDeps } from '../../deps.ts';
import { findDetailsById, findDetailsIssuedBetween, type TCertificateDetails } from './certificates.repository.ts';

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

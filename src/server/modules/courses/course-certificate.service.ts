import type { Executor } from '../../db/client.ts';
import { findCertificateTerms, findCoursesRenewedBy } from './courses.repository.ts';

/*
 * A course's certificate settings: its code and the regulator's approval number, how long its
 * certificate is valid, the refresher course that renews it, and whether its test needs an
 * approved seafarer profile. A course with none of them set issues certificates that never expire.
 */

export type TCertificateTerms = {
  code: string | null;
  approvalNumber: string | null;
  validityMonths: number | null;
  testRequiresApprovedProfile: boolean;
};

/** What a certificate of the course is issued with, read in the caller's transaction. */
export async function certificateTermsOf(db: Executor, courseId: string): Promise<TCertificateTerms | undefined> {
  return findCertificateTerms(db, courseId);
}

/** The courses whose certificates a certificate of `courseId` renews (it is their refresher). */
export function coursesRenewedBy(db: Executor, courseId: string): Promise<string[]> {
  return findCoursesRenewedBy(db, courseId);
}

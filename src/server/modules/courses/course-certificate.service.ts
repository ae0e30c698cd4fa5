import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourseCertificateSettings, TCourseCertificateSettingsRequest } from '../../../shared/schemas/course.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { findById, findCertificateSettings, findCertificateTerms, findCoursesRenewedBy, updateCertificateSettings } from './courses.repository.ts';

/*
 * A course's certificate settings: its code and the regulator's approval number, how long its
 * certificate is valid, the refresher course that renews it, and whether its test needs an
 * approved seafarer profile. A course with none of them set issues certificates that never expire.
 */

const CC = MESSAGES.courseCertificate;
type Deps = Pick<AppDeps, 'db' | 'logger'>;

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

/** Administrators: a course's certificate settings; not found for an unknown course. */
export async function certificateSettings(deps: Pick<AppDeps, 'db'>, courseId: string): Promise<TCourseCertificateSettings> {
  const row = await findCertificateSettings(deps.db, courseId);
  if (!row) throw notFound(MESSAGES.courses.notFound);
  return {
    code: row.code,
    approvalNumber: row.approvalNumber,
    validityMonths: row.validityMonths,
    refresher: row.refresherId ? { id: row.refresherId, title: row.refresherTitle ?? '' } : null,
    testRequiresApprovedProfile: row.testRequiresApprovedProfile,
  };
}

const refused = (message: string) => new AppError('BAD_REQUEST', message, { fields: { refresherCourseId: message } });

/**
 * Administrators set a course's certificate settings. The refresher must be another course that
 * exists (the update's foreign key holds it against removal once written); an unknown course is
 * not found. A refusal changes nothing. Certificates already issued keep the terms they were
 * issued with.
 */
export async function updateCourseCertificateSettings(
  deps: Deps,
  actor: TStaffActor,
  input: TCourseCertificateSettingsRequest,
): Promise<{ message: string; settings: TCourseCertificateSettings }> {
  const { courseId, refresherCourseId } = input;
  await deps.db.transaction(async (tx) => {
    const before = await findById(tx, courseId);
    if (!before) throw notFound(MESSAGES.courses.notFound);
    if (refresherCourseId !== null) {
      if (refresherCourseId === courseId) throw refused(CC.refresherSelf);
      if (!(await findById(tx, refresherCourseId))) throw refused(CC.refresherUnknown);
    }
    const values = {
      code: input.code,
      approvalNumber: input.approvalNumber,
      certificateValidityMonths: input.validityMonths,
      refresherCourseId,
      testRequiresApprovedProfile: input.testRequiresApprovedProfile,
    };
    if (!(await updateCertificateSettings(tx, courseId, values))) throw notFound(MESSAGES.courses.notFound);
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'course.certificate-settings',
      subjectType: 'course',
      subjectId: courseId,
      before: {
        code: before.code,
        approvalNumber: before.approvalNumber,
        certificateValidityMonths: before.certificateValidityMonths,
        refresherCourseId: before.refresherCourseId,
        testRequiresApprovedProfile: before.testRequiresApprovedProfile,
      },
      after: values,
    });
  });
  deps.logger.info({ courseId, by: actor.id }, 'course certificate settings changed');
  return { message: CC.saved, settings: await certificateSettings(deps, courseId) };
}

/** Whether the course's test waits for an approved profile; false for an unknown course. */
export async function testRequiresApprovedProfile(db: Executor, courseId: string): Promise<boolean> {
  return (await findCertificateTerms(db, courseId))?.testRequiresApprovedProfile ?? false;
}

import { z } from 'zod';
import {
  ZAdminCertificate,
  ZCertificateCourseRequest,
  ZCertificateVerification,
  ZAdminCertificateRow,
  ZCertificateIdRequest,
  ZLearnerCertificate,
  ZRevokeRequest,
  ZVerifyByHolderRequest,
  ZVerifyRequest,
} from '../../../shared/schemas/certificate.ts';
import { authedProcedure, createRouter, publicProcedure, staffProcedure } from '../../trpc/init.ts';
import { certificateAdminProcedures } from './certificate-admin.router.ts';
import { certificateReminderProcedures } from './reminders.router.ts';
import { reissueCertificate, revokeCertificate } from './certificate-reissue.service.ts';
import { verifyCertificate, verifyCertificateByHolder } from './certificate-verification.service.ts';
import { certificateForCourse, myCertificates } from './certificates.service.ts';

/** Certificates: the learner's own, the public verification (by code, by number, by number and holder), revocation and re-issue. */
export const certificatesRouter = createRouter({
  /** The caller's certificates (Certificate Report). */
  mine: authedProcedure.output(z.array(ZLearnerCertificate)).query(({ ctx }) => myCertificates(ctx.deps, ctx.user)),

  /** The caller's certificate for a course; NOT_FOUND 'Certificate not found.' when there is none of theirs. */
  forCourse: authedProcedure
    .input(ZCertificateCourseRequest)
    .output(ZLearnerCertificate)
    .query(({ ctx, input }) => certificateForCourse(ctx.deps, ctx.user, input.courseId)),

  /** /verify/{number}[?code=]: public; the details with the certificate's code, a masked name without. */
  verify: publicProcedure
    .input(ZVerifyRequest)
    .output(ZCertificateVerification)
    .query(({ ctx, input }) => verifyCertificate(ctx.deps, input, ctx.ip)),

  /** The number with the holder's date of birth or INDOS number: public, a POST so neither lands in an address. */
  verifyByHolder: publicProcedure
    .input(ZVerifyByHolderRequest)
    .output(ZCertificateVerification)
    .mutation(({ ctx, input }) => verifyCertificateByHolder(ctx.deps, input, ctx.ip)),

  /** An administrator revokes a certificate; CONFLICT when it already is. */
  revoke: staffProcedure('certificates.manage')
    .input(ZRevokeRequest)
    .output(ZAdminCertificate)
    .mutation(({ ctx, input }) => revokeCertificate(ctx.deps, ctx.actor, input)),

  /**
   * An administrator re-issues a live certificate whose PDF is ready: same number, a new version
   * printed from the profile as it is now; CONFLICT when it is revoked, superseded or not ready.
   */
  reissue: staffProcedure('certificates.manage')
    .input(ZCertificateIdRequest)
    .output(z.object({ message: z.string(), certificate: ZAdminCertificateRow }))
    .mutation(({ ctx, input }) => reissueCertificate(ctx.deps, ctx.actor, input.certificateId)),

  ...certificateAdminProcedures,
  ...certificateReminderProcedures,
});

import {
  ZAdminCertificatePage,
  ZAdminCertificateQuery,
  ZRegulatorBatch,
  ZRegulatorBatchQuery,
} from '../../../shared/schemas/certificate.ts';
import { staffProcedure } from '../../trpc/init.ts';
import { adminCertificates, regulatorBatch } from './certificate-admin.service.ts';

/** The administrators' certificate list and the regulator's batch, spread into the certificates router. */
export const certificateAdminProcedures = {
  /** Certificates searched (learner's name, e-mail, INDOS, number) and filtered (course, state, expiring within N days), newest issue first, paged. */
  adminList: staffProcedure('certificates.read')
    .input(ZAdminCertificateQuery)
    .output(ZAdminCertificatePage)
    .query(({ ctx, input }) => adminCertificates(ctx.deps, input)),

  /** A course's completions issued from one day to another (inclusive, UTC), as the regulator's batch upload lists them. */
  regulatorBatch: staffProcedure('certificates.read')
    .input(ZRegulatorBatchQuery)
    .output(ZRegulatorBatch)
    .query(({ ctx, input }) => regulatorBatch(ctx.deps, input)),
};

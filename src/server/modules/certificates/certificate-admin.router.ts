import {
  ZAdminCertificatePage,
  ZAdminCertificateQuery,
  ZRegulatorBatch,
  ZRegulatorBatchQuery,
} from '../../../shared/schemas/certificate.ts';
import { adminProcedure } from '../../trpc/init.ts';
import { adminCertificates, regulatorBatch } from './certificate-admin.service.ts';

/** The administrators' certificate list and the regulator's batch, spread into the certificates router. */
export const certificateAdminProcedures = {
  /** Certificates searched (learner's name, e-mail, INDOS, number) and filtered (course, state, expiring within N days), newest issue first, paged. */
  adminList: adminProcedure
    .input(ZAdminCertificateQuery)
    .output(ZAdminCertificatePage)
    .query(({ ctx, input }) => adminCertificates(ctx.deps, input)),

  /** A course's completions issued from one day to another (inclusive, UTC), as the regulator's batch upload lists them. */
  regulatorBatch: adminProcedure
    .input(ZRegulatorBatchQuery)
    .output(ZRegulatorBatch)
    .query(({ ctx, input }) => regulatorBatch(ctx.deps, input)),
};

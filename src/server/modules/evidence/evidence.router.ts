import { ZCertificateEvidence, ZEvidenceRequest } from '../../../shared/schemas/evidence.ts';
import { createRouter, staffProcedure } from '../../trpc/init.ts';
import { certificateEvidence } from './evidence.service.ts';

/** The auditor's evidence behind certificates (administrators). The CSV per course is evidence.rest.ts. */
export const evidenceRouter = createRouter({
  certificate: staffProcedure('certificates.read')
    .input(ZEvidenceRequest)
    .output(ZCertificateEvidence)
    .query(({ ctx, input }) => certificateEvidence(ctx.deps, input.certificateId)),
});

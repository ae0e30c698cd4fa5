import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { z } from 'zod';
import type { AppRouter } from '../../../../server/router.ts';
import {
  type TCertificateVerification,
  type TLearnerCertificate,
  ZCertificateVerification,
  ZLearnerCertificate,
} from '../../../../shared/schemas/certificate.ts';
import { trpc } from '@/lib/trpc.ts';

/*
 * Every call of the certificates feature, in one file. The procedures are called by their names
 * through the app's tRPC client (session renewal and batching included) and their answers are
 * read with the shared contract's schemas (src/shared/schemas/certificate.ts), so the screens
 * depend on that contract alone. The query keys are tRPC's own, so these caches are the ones
 * `trpc.certificates.*` hooks and `utils.certificates.invalidate()` use.
 */

type TCertificateProcedures = {
  mine: { query(): Promise<unknown> };
  forCourse: { query(input: { courseId: string }): Promise<unknown> };
  verify: { query(input: { number: string }): Promise<unknown> };
};

/** Once the router serves the certificates procedures, their answers must be the contract's. */
type TServerAnswers = inferRouterOutputs<AppRouter> extends { certificates: infer C } ? C : TContractAnswers;
type TContractAnswers = { mine: TLearnerCertificate[]; forCourse: TLearnerCertificate; verify: TCertificateVerification };
const SERVER_AGREES: TServerAnswers extends TContractAnswers ? true : false = true;
void SERVER_AGREES;

function useCertificateProcedures(): TCertificateProcedures {
  const { client } = trpc.useUtils();
  return (client as unknown as { certificates: TCertificateProcedures }).certificates;
}

const queryKey = (procedure: keyof TCertificateProcedures, input?: unknown) =>
  [['certificates', procedure], input === undefined ? { type: 'query' } : { input, type: 'query' }] as const;

/** certificates.mine: the learner's certificates, read afresh on each visit (a pass may be minutes old). */
export function useMyCertificates() {
  const procedures = useCertificateProcedures();
  return useQuery({
    queryKey: queryKey('mine'),
    queryFn: async () => z.array(ZLearnerCertificate).parse(await procedures.mine.query()),
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

const beingPrepared = (certificate: TLearnerCertificate | undefined) => certificate?.status === 'pending' && !certificate.revoked;

/**
 * certificates.forCourse: one course's certificate, read again every `pollMs` while its PDF is
 * being prepared (false: not read again).
 */
export function useCourseCertificate(courseId: string | undefined, pollMs: number | false) {
  const procedures = useCertificateProcedures();
  return useQuery({
    queryKey: queryKey('forCourse', { courseId }),
    queryFn: async () => ZLearnerCertificate.parse(await procedures.forCourse.query({ courseId: courseId! })),
    enabled: Boolean(courseId),
    staleTime: 0,
    refetchInterval: (query) => (pollMs && beingPrepared(query.state.data) ? pollMs : false),
  });
}

/** certificates.verify (public): whether a number belongs to a valid or a revoked certificate. */
export function useCertificateVerification(number: string | undefined) {
  const procedures = useCertificateProcedures();
  return useQuery({
    queryKey: queryKey('verify', { number }),
    queryFn: async () => ZCertificateVerification.parse(await procedures.verify.query({ number: number! })),
    enabled: Boolean(number),
  });
}

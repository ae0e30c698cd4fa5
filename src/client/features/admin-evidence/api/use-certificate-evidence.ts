import { trpc } from '@/lib/trpc.ts';

/** evidence.certificate: what the server recorded behind one certificate, read afresh on each visit. */
export function useCertificateEvidence(certificateId: string) {
  return trpc.evidence.certificate.useQuery({ certificateId }, { staleTime: 0, refetchOnMount: 'always' });
}

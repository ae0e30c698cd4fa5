import type { TLearnerCertificate } from '../../../../shared/schemas/certificate.ts';
import { trpc } from '@/lib/trpc.ts';

/* Every call of the certificates feature, in one file. */

const beingPrepared = (certificate: TLearnerCertificate | undefined) => certificate?.status === 'pending' && !certificate.revoked;

/**
 * certificates.mine: the learner's certificates, read afresh on each visit (a pass may be minutes
 * old), and read again every `pollMs` while one of their PDFs is being prepared (false: not).
 */
export function useMyCertificates(pollMs: number | false = false) {
  return trpc.certificates.mine.useQuery(undefined, {
    staleTime: 0,
    refetchOnMount: 'always',
    refetchInterval: (query) => (pollMs && query.state.data?.some(beingPrepared) ? pollMs : false),
  });
}

/**
 * certificates.forCourse: one course's certificate, read again every `pollMs` while its PDF is
 * being prepared (false: not read again).
 */
export function useCourseCertificate(courseId: string | undefined, pollMs: number | false) {
  return trpc.certificates.forCourse.useQuery(
    { courseId: courseId ?? '' },
    {
      enabled: Boolean(courseId),
      staleTime: 0,
      refetchInterval: (query) => (pollMs && beingPrepared(query.state.data) ? pollMs : false),
    },
  );
}

/**
 * certificates.verify (public): whether a number belongs to a valid or a revoked certificate; the
 * holder's details too when the certificate's code (from its QR code) comes with it.
 */
export function useCertificateVerification(number: string | undefined, code: string | undefined) {
  return trpc.certificates.verify.useQuery({ number: number ?? '', ...(code ? { code } : {}) }, { enabled: Boolean(number) });
}

/** certificates.verifyByHolder (public): the number with the holder's date of birth or INDOS number. */
export function useVerifyByHolder() {
  return trpc.certificates.verifyByHolder.useMutation();
}

/** certificates.reminderPreference: whether the learner gets e-mails before a certificate expires. */
export function useReminderPreference() {
  return trpc.certificates.reminderPreference.useQuery();
}

/** certificates.setReminderPreference: turns those e-mails on or off; the answer is what the server kept. */
export function useSetReminderPreference() {
  const utils = trpc.useUtils();
  return trpc.certificates.setReminderPreference.useMutation({
    onSuccess: (saved) => utils.certificates.reminderPreference.setData(undefined, saved),
  });
}

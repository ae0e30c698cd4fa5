import { trpc } from '@/lib/trpc.ts';

/** The second step of a sign-in and the enrolment at sign-in, all with the login's challenge token. */
export function useSignInSecondFactor() {
  return {
    secondFactor: trpc.auth.secondFactor.useMutation(),
    passkeyOptions: trpc.auth.passkeySignInOptions.useMutation(),
    enrolTotp: trpc.auth.enrolTotp.useMutation(),
    confirmTotp: trpc.auth.confirmTotp.useMutation(),
    passkeyEnrolmentOptions: trpc.auth.passkeyEnrolmentOptions.useMutation(),
    registerPasskey: trpc.auth.registerPasskey.useMutation(),
  };
}

/** The account's security page: its factors and recovery codes. */
export function useSecurity() {
  const utils = trpc.useUtils();
  const refresh = () => utils.security.overview.invalidate();
  return {
    overview: trpc.security.overview.useQuery(),
    startTotp: trpc.security.startTotp.useMutation(),
    confirmTotp: trpc.security.confirmTotp.useMutation({ onSuccess: refresh }),
    passkeyOptions: trpc.security.passkeyOptions.useMutation(),
    registerPasskey: trpc.security.registerPasskey.useMutation({ onSuccess: refresh }),
    removeFactor: trpc.security.removeFactor.useMutation({ onSuccess: refresh }),
    regenerate: trpc.security.regenerateRecoveryCodes.useMutation({ onSuccess: refresh }),
  };
}

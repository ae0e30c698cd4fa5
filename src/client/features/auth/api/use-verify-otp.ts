import { trpc } from '@/lib/trpc.ts';

/** auth.verifyOtp: confirms the e-mail address with the code from the mail. */
export function useVerifyOtp() {
  return trpc.auth.verifyOtp.useMutation();
}

import { trpc } from '@/lib/trpc.ts';

/** auth.resendOtp: sends another verification code. */
export function useResendOtp() {
  return trpc.auth.resendOtp.useMutation();
}

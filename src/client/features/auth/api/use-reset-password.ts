import { trpc } from '@/lib/trpc.ts';

/** auth.resetPassword: a new password, with the code from the mail. */
export function useResetPassword() {
  return trpc.auth.resetPassword.useMutation();
}

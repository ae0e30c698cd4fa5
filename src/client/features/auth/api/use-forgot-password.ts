import { trpc } from '@/lib/trpc.ts';

/** auth.forgotPassword: sends a code to reset the password. */
export function useForgotPassword() {
  return trpc.auth.forgotPassword.useMutation();
}

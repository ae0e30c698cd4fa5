import { trpc } from '@/lib/trpc.ts';

/** auth.register: a new learner's account; a code to verify the e-mail is sent. */
export function useRegister() {
  return trpc.auth.register.useMutation();
}

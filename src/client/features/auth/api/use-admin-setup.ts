import { trpc } from '@/lib/trpc.ts';

/** auth.adminSetupStatus: whether the one-time set-up link still works (asked once, never retried). */
export function useAdminSetupStatus(token: string) {
  return trpc.auth.adminSetupStatus.useQuery({ token }, { enabled: token !== '', retry: false });
}

/** auth.setupAdmin: creates the first administrator with the one-time link's token. */
export function useSetupAdmin() {
  return trpc.auth.setupAdmin.useMutation();
}

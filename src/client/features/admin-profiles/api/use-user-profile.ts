import { trpc } from '@/lib/trpc.ts';

/** Signed file links live 15 minutes; a profile left open refreshes well before. */
const REFRESH_MS = 10 * 60_000;

/** profiles.byUser: one user's profile with its documents, for administrators. */
export function useUserProfile(userId: string) {
  return trpc.profiles.byUser.useQuery({ userId }, { refetchInterval: REFRESH_MS });
}

import { trpc } from '@/lib/trpc.ts';

/**
 * File links are signed for 15 minutes; refetching well before that keeps the picture, signature
 * and document links working on a page left open.
 */
export const PROFILE_REFRESH_MS = 10 * 60_000;

/** The signed-in learner's profile: null before they have created one. */
export function useMyProfile() {
  return trpc.profiles.mine.useQuery(undefined, { refetchInterval: PROFILE_REFRESH_MS, staleTime: 60_000 });
}

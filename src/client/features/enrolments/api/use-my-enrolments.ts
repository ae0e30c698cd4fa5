import { trpc } from '@/lib/trpc.ts';

/**
 * enrolments.mine: the learner's own requests and where each stands. Screens about them read them
 * afresh on every visit (`fresh`); others may use what is cached.
 */
export function useMyEnrolments({ enabled = true, fresh = false }: { enabled?: boolean; fresh?: boolean } = {}) {
  return trpc.enrolments.mine.useQuery(undefined, fresh ? { enabled, staleTime: 0, refetchOnMount: 'always' } : { enabled });
}

import { trpc } from '@/lib/trpc.ts';

/**
 * tests.status: where the learner stands with the course's test (attempts left, when the next
 * opens, why it is closed). It starts nothing, so it is read afresh on each visit.
 */
export function useTestStatus(courseId: string) {
  return trpc.tests.status.useQuery({ courseId }, { staleTime: 0, refetchOnMount: 'always', refetchOnWindowFocus: true });
}

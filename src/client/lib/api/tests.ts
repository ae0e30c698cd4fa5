import { trpc } from '@/lib/trpc.ts';

/**
 * tests.status: where the learner stands with the course's test (attempts left, when the next
 * opens, why it is closed, a pass), for the course home and the test page. It starts nothing, so it
 * is read afresh on each visit and when the learner comes back to the tab: the wait may be over,
 * or an attempt submitted in another tab.
 */
export function useTestStatus(courseId: string) {
  return trpc.tests.status.useQuery({ courseId }, { staleTime: 0, refetchOnMount: 'always', refetchOnWindowFocus: true });
}

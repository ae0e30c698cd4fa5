import { trpc } from '@/lib/trpc.ts';

/**
 * tests.status for the course home's steps: where the learner stands with the course's test
 * (attempts left, when the next opens, a pass). Starts nothing; read afresh on each visit.
 */
export function useTestStanding(courseId: string) {
  return trpc.tests.status.useQuery({ courseId }, { staleTime: 0, refetchOnMount: 'always', retry: false });
}

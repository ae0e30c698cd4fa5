import { trpc } from '@/lib/trpc.ts';

/**
 * tests.take: the course's test without its answers. Opening it starts the attempt on the server
 * (or hands back the open one), so it is read once per visit and never again behind the learner's
 * back: a read after a submission would start a new attempt. Try again refetches it on purpose.
 */
export function useTestSession(courseId: string) {
  return trpc.tests.take.useQuery(
    { courseId },
    { staleTime: Infinity, gcTime: 0, refetchOnMount: 'always', refetchOnReconnect: false, refetchOnWindowFocus: false },
  );
}

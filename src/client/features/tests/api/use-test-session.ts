import { trpc } from '@/lib/trpc.ts';

/**
 * tests.take: the learner's attempt, without the answers. Opening it starts an attempt on the
 * server (or hands back the open one), so it is read only once the learner chose to start (or an
 * attempt is already open), and never again behind the learner's back: a read after a submission
 * would start a new attempt. `reset` forgets it, so the next start asks anew.
 */
export function useTestSession(courseId: string, enabled: boolean) {
  const utils = trpc.useUtils();
  const query = trpc.tests.take.useQuery(
    { courseId },
    { enabled, staleTime: Infinity, gcTime: 0, retry: false, refetchOnMount: 'always', refetchOnReconnect: false, refetchOnWindowFocus: false },
  );
  return { ...query, reset: () => utils.tests.take.reset({ courseId }) };
}

import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from '@/lib/trpc.ts';

/**
 * tests.take: the learner's attempt, without the answers. Opening it starts an attempt on the
 * server (or hands back the open one), so it is read only once the learner chose to start (or an
 * attempt is already open), and never again behind the learner's back: a read after a submission
 * would start a new attempt. `forget` drops it without reading it again, so the next start asks anew.
 */
export function useTestSession(courseId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const query = trpc.tests.take.useQuery(
    { courseId },
    { enabled, staleTime: Infinity, gcTime: 0, retry: false, refetchOnMount: 'always', refetchOnReconnect: false, refetchOnWindowFocus: false },
  );
  return { ...query, forget: () => queryClient.removeQueries({ queryKey: getQueryKey(trpc.tests.take, { courseId }, 'query') }) };
}

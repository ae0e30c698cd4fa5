import { trpc } from '@/lib/trpc.ts';

/** All Created Tests: every test with its questions and answers, always fresh. */
export function useAllTests() {
  return trpc.tests.list.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

/** Published Tests (read-only). */
export function usePublishedTests() {
  return trpc.tests.published.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

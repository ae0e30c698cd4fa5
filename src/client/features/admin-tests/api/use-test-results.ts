import { trpc } from '@/lib/trpc.ts';

export const RESULTS_PAGE_SIZE = 10;

/** tests.results: one page of the attempts matching `search`; the previous page stays up while the next loads. */
export function useTestResults({ search, page }: { search: string; page: number }) {
  return trpc.tests.results.useQuery(
    { search, page, pageSize: RESULTS_PAGE_SIZE },
    { placeholderData: (previous) => previous, staleTime: 0 },
  );
}

import { trpc } from '@/lib/trpc.ts';

/** overview.figures: the landing page's counts and pass rates, in one request, fresh on each visit. */
export function useAdminFigures() {
  return trpc.overview.figures.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

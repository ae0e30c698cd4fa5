import { trpc } from '@/lib/trpc.ts';

const PAGE_SIZE = 12;

/** enrolments.search: one page of pending enrolment requests matching `search`, always fresh. */
export function useEnrolmentRequests({ search, page }: { search: string; page: number }) {
  return trpc.enrolments.search.useQuery(
    { search, status: 'pending', page, pageSize: PAGE_SIZE },
    { placeholderData: (previous) => previous, staleTime: 0 },
  );
}

import type { TEnrolmentStatus } from '../../../../shared/constants.ts';
import { trpc } from '@/lib/trpc.ts';

const PAGE_SIZE = 12;

/**
 * enrolments.search: one page of the requests in `status` matching `search`, always fresh. While
 * another page or search of the same state loads, the previous one stays up; another state's
 * requests never stand in for this one's.
 */
export function useEnrolmentRequests({ status, search, page }: { status: TEnrolmentStatus; search: string; page: number }) {
  return trpc.enrolments.search.useQuery(
    { search, status, page, pageSize: PAGE_SIZE },
    {
      placeholderData: (previous, previousQuery) => {
        const asked = previousQuery?.queryKey[1]?.input as { status?: TEnrolmentStatus } | undefined;
        return asked?.status === status ? previous : undefined;
      },
      staleTime: 0,
    },
  );
}

import { ENROLMENT_STATUSES, type TEnrolmentStatus } from '../../../../shared/constants.ts';
import { trpc } from '@/lib/trpc.ts';

/**
 * How many requests match `search` in each status, for the tabs: enrolments.search asked for a
 * page of one, whose total is the count. The three go out in one batched request, and a decision
 * (which invalidates enrolments.search) refreshes them with the list.
 */
export function useEnrolmentRequestCounts(search: string): Partial<Record<TEnrolmentStatus, number>> {
  const results = trpc.useQueries((t) =>
    ENROLMENT_STATUSES.map((status) =>
      t.enrolments.search({ search, status, page: 1, pageSize: 1 }, { placeholderData: (previous) => previous, staleTime: 0 }),
    ),
  );
  return Object.fromEntries(ENROLMENT_STATUSES.map((status, index) => [status, results[index]?.data?.total]));
}

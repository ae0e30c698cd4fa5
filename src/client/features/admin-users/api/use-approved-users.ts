import { trpc } from '@/lib/trpc.ts';

/** users.listApproved: one page of approved learners, most recent first; the last page stays up while the next loads. */
export function useApprovedUsers(page: number) {
  return trpc.users.listApproved.useQuery({ page }, { placeholderData: (previous) => previous });
}

import { trpc } from '@/lib/trpc.ts';

/** users.listUnapproved: one page of verified learners waiting for approval; the last page stays up while the next loads. */
export function useUnapprovedUsers(page: number) {
  return trpc.users.listUnapproved.useQuery({ page }, { placeholderData: (previous) => previous });
}

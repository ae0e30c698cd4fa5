import { trpc } from '@/lib/trpc.ts';

/** auth.me: the signed-in user. Approval can change at any time, so it is read afresh on each visit. */
export function useMe() {
  return trpc.auth.me.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

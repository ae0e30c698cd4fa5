import { trpc } from '@/lib/trpc.ts';

/**
 * auth.me: the signed-in user, for the learner's dashboard and the staff member's role. Read afresh
 * on each screen's visit (the calls of one render go out together): an approval or a change of role
 * can come at any time, and the next screen shows it.
 */
export function useMe() {
  return trpc.auth.me.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

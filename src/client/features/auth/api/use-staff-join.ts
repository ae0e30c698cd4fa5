import { trpc } from '@/lib/trpc.ts';

/** staff.invitation: whether the link can still be used, for which e-mail and role. */
export function useInvitation(token: string) {
  return trpc.staff.invitation.useQuery({ token }, { enabled: token !== '', retry: false });
}

export function useJoinStaff() {
  return trpc.staff.join.useMutation();
}

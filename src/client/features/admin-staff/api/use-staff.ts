import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

/** staff.list: the members and the open invitations. */
export function useStaffList() {
  return trpc.staff.list.useQuery();
}

/** Each staff change, with its toast; the list is read again afterwards. */
export function useStaffChanges() {
  const utils = trpc.useUtils();
  const refresh = () => utils.staff.list.invalidate();
  const failed = (error: unknown) => toast.error(errorMessage(error, { fallback: MESSAGES.common.internal }), { duration: ADMIN_TOAST_MS });
  const done = (message: string) => toast.success(message, { duration: ADMIN_TOAST_MS });
  return {
    invite: trpc.staff.invite.useMutation({ onSuccess: (invitation) => done(MESSAGES.staff.invited(invitation.email)), onSettled: refresh }),
    resend: trpc.staff.resendInvitation.useMutation({ onSuccess: (invitation) => done(MESSAGES.staff.resent(invitation.email)), onError: failed, onSettled: refresh }),
    revoke: trpc.staff.revokeInvitation.useMutation({ onSuccess: () => done(MESSAGES.staff.revoked), onError: failed, onSettled: refresh }),
    changeRole: trpc.staff.changeRole.useMutation({ onSuccess: () => done(MESSAGES.staff.roleChanged), onError: failed, onSettled: refresh }),
    deactivate: trpc.staff.deactivate.useMutation({ onSuccess: () => done(MESSAGES.staff.deactivated), onError: failed, onSettled: refresh }),
    reactivate: trpc.staff.reactivate.useMutation({ onSuccess: () => done(MESSAGES.staff.reactivated), onError: failed, onSettled: refresh }),
  };
}

import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { refusalReason } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

/** users.approve, with the spec's toasts; both user lists are reloaded afterwards. */
export function useApproveUser() {
  const utils = trpc.useUtils();
  return trpc.users.approve.useMutation({
    onSuccess: () => {
      toast.success(MESSAGES.users.approved, { duration: ADMIN_TOAST_MS });
    },
    onError: (error) => {
      // The catalogue's words, and the server's reason when it gave one (not verified, not found).
      toast.error(MESSAGES.users.approveFailed, {
        duration: ADMIN_TOAST_MS,
        description: refusalReason(error, MESSAGES.users.approveFailed),
      });
    },
    onSettled: () =>
      Promise.all([utils.users.listUnapproved.invalidate(), utils.users.listApproved.invalidate()]),
  });
}

import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { refusalReason } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

const E = MESSAGES.enrolment;

export type TDecision = 'accept' | 'reject';

/** enrolments.accept / enrolments.reject with the catalogue's 4 s toasts; the request list reloads after. */
export function useEnrolmentDecision() {
  const utils = trpc.useUtils();
  const reload = () => utils.enrolments.search.invalidate();
  const accept = trpc.enrolments.accept.useMutation({
    onSuccess: () => {
      toast.success(E.accepted, { duration: ADMIN_TOAST_MS });
    },
    onError: (error) => {
      toast.error(E.acceptFailed, { duration: ADMIN_TOAST_MS, description: refusalReason(error, E.acceptFailed) });
    },
    onSettled: reload,
  });
  const reject = trpc.enrolments.reject.useMutation({
    onSuccess: () => {
      toast.success(E.rejected, { duration: ADMIN_TOAST_MS });
    },
    onError: (error) => {
      toast.error(E.rejectFailed, { duration: ADMIN_TOAST_MS, description: refusalReason(error, E.rejectFailed) });
    },
    onSettled: reload,
  });
  return {
    pending: accept.isPending || reject.isPending,
    decide(enrolmentId: string, decision: TDecision, done: () => void) {
      (decision === 'accept' ? accept : reject).mutate({ enrolmentId }, { onSettled: done });
    },
  };
}

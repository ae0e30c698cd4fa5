import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import type { TEnrolmentRequestItem } from '../../../../shared/schemas/enrolment.ts';
import { refusalReason } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

const E = MESSAGES.enrolment;

export type TDecision = 'accept' | 'reject';

/** Who and what a decision was about, under the toast's catalogue wording. */
const about = (request: TEnrolmentRequestItem) => `${request.user.name}: ${request.course.title}`;

/**
 * enrolments.accept / enrolments.reject with the catalogue's 4 s toasts. Every count and page of
 * requests reloads after, since the request moves from one state's list to another's.
 */
export function useEnrolmentDecision() {
  const utils = trpc.useUtils();
  const reload = () => utils.enrolments.search.invalidate();
  const accept = trpc.enrolments.accept.useMutation({
    onSuccess: ({ request }) => {
      toast.success(E.accepted, { duration: ADMIN_TOAST_MS, description: about(request) });
    },
    onError: (error) => {
      toast.error(E.acceptFailed, { duration: ADMIN_TOAST_MS, description: refusalReason(error, E.acceptFailed) });
    },
    onSettled: reload,
  });
  const reject = trpc.enrolments.reject.useMutation({
    onSuccess: ({ request }) => {
      toast.success(E.rejected, { duration: ADMIN_TOAST_MS, description: about(request) });
    },
    onError: (error) => {
      toast.error(E.rejectFailed, { duration: ADMIN_TOAST_MS, description: refusalReason(error, E.rejectFailed) });
    },
    onSettled: reload,
  });
  return {
    pending: accept.isPending || reject.isPending,
    /** Sends the decision; `done` runs once the server has answered, with whether it was recorded. */
    decide(enrolmentId: string, decision: TDecision, done: (recorded: boolean) => void) {
      (decision === 'accept' ? accept : reject).mutate(
        { enrolmentId },
        { onSuccess: () => done(true), onError: () => done(false) },
      );
    },
  };
}

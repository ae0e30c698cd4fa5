import { toast } from 'sonner';
import { MESSAGES } from '../../../../shared/messages.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

/**
 * enrolments.request with the catalogue's toasts: the confirmation, else the server's reason
 * (awaiting approval, already requested, course closed), else 'Something went wrong'. The
 * learner's lists are reloaded either way, since a refusal may mean they were out of date.
 */
export function useRequestEnrolment() {
  const utils = trpc.useUtils();
  const mutation = trpc.enrolments.request.useMutation({
    onSuccess: () => {
      toast.success(MESSAGES.enrolment.submitted);
    },
    onError: (error) => {
      toast.error(errorMessage(error, { fallback: MESSAGES.enrolment.failed }));
    },
    onSettled: () => Promise.all([utils.enrolments.dashboard.invalidate(), utils.enrolments.mine.invalidate()]),
  });
  return {
    request: (courseId: string) => mutation.mutate({ courseId }),
    /** Whether the request for this course is on its way. */
    isRequesting: (courseId: string) => mutation.isPending && mutation.variables?.courseId === courseId,
  };
}

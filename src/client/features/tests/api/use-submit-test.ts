import { trpc } from '@/lib/trpc.ts';

/**
 * tests.submit: the server scores the open attempt; a pass answers with the certificate's summary.
 * The learner's standing (attempts left, the wait, the certificate) is read again afterwards.
 */
export function useSubmitTest() {
  const utils = trpc.useUtils();
  return trpc.tests.submit.useMutation({
    onSuccess: (result) => utils.tests.status.invalidate({ courseId: result.courseId }),
  });
}

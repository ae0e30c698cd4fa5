import { trpc } from '@/lib/trpc.ts';

/**
 * training.submit (POST /videoWatchedUser/{setId}) from the course home's Step 2: the submission
 * the player makes, accepted once every part is completed on the server's record. The course home
 * and the test's standing are read again before it counts as done, so the step moves on to the
 * test with its attempts at once.
 */
export function useSubmitTraining(courseId: string) {
  const utils = trpc.useUtils();
  return trpc.training.submit.useMutation({
    onSuccess: () =>
      Promise.all([utils.enrolments.invalidate(), utils.tests.status.invalidate({ courseId }), utils.training.player.invalidate({ courseId })]),
  });
}

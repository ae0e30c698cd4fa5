import { trpc } from '@/lib/trpc.ts';

/**
 * training.submit (POST /videoWatchedUser/{setId}), from the player or the course home: accepted
 * once every part is completed on the server's record. What it changes is read again before it
 * counts as done (the learner's courses, the player, the test's standing), so whichever screen
 * comes next moves on to the test with its attempts at once.
 */
export function useSubmitTraining(courseId: string) {
  const utils = trpc.useUtils();
  return trpc.training.submit.useMutation({
    onSuccess: () =>
      Promise.all([utils.enrolments.invalidate(), utils.tests.status.invalidate({ courseId }), utils.training.player.invalidate({ courseId })]),
  });
}

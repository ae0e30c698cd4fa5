import { trpc } from '@/lib/trpc.ts';

/** training.submit (POST /videoWatchedUser/{setId}): accepted once every part is completed. */
export function useSubmitTraining(courseId: string) {
  const utils = trpc.useUtils();
  return trpc.training.submit.useMutation({
    onSuccess: () =>
      Promise.all([utils.training.player.invalidate({ courseId }), utils.enrolments.invalidate()]),
  });
}

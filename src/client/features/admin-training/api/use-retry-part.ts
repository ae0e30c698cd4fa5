import { trpc } from '@/lib/trpc.ts';

/** training.retry: a failed part is queued to be prepared again; the list is read again (and polls). */
export function useRetryPart() {
  const utils = trpc.useUtils();
  return trpc.training.retry.useMutation({ onSettled: () => utils.training.sets.invalidate() });
}

import { trpc } from '@/lib/trpc.ts';

/** training.deleteVideo: a part and its files go; the parts after it move up. The list is read again. */
export function useDeletePart() {
  const utils = trpc.useUtils();
  return trpc.training.deleteVideo.useMutation({ onSettled: () => utils.training.sets.invalidate() });
}

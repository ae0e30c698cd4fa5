import { trpc } from '@/lib/trpc.ts';

/**
 * training.reorder with the full list of a set's part ids in their new order. The server's answer
 * (the set in its new order) goes into the list at once; the list is read again afterwards.
 */
export function useReorderParts() {
  const utils = trpc.useUtils();
  return trpc.training.reorder.useMutation({
    onSuccess: ({ message: _message, ...set }) => {
      utils.training.sets.setData(undefined, (sets) => sets?.map((each) => (each.id === set.id ? set : each)));
    },
    onSettled: () => utils.training.sets.invalidate(),
  });
}

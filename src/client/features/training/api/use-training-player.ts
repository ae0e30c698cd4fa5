import { trpc } from '@/lib/trpc.ts';

/**
 * training.player: the course's parts in order, what is locked and completed, where to resume, and
 * fresh stream links. Read afresh on each visit (progress may have moved on another device).
 */
export function useTrainingPlayer(courseId: string) {
  return trpc.training.player.useQuery({ courseId }, { staleTime: 0, refetchOnMount: 'always' });
}

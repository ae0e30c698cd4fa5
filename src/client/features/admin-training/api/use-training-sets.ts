import type { TAdminTrainingSet } from '../../../../shared/schemas/training.ts';
import { trpc } from '@/lib/trpc.ts';

/** How often the list is read again while a video is being prepared. */
export const TRAINING_POLL_MS = 2000;

/** Whether any part of any course is still waiting for or going through the transcoder. */
export function isPreparing(sets: readonly TAdminTrainingSet[] | undefined): boolean {
  return Boolean(sets?.some((set) => set.videos.some((video) => video.status === 'pending' || video.status === 'processing')));
}

/**
 * training.sets: every course's training with each part's status, read every two seconds while a
 * part is pending or processing (so its progress moves), and not at all otherwise.
 */
export function useTrainingSets() {
  return trpc.training.sets.useQuery(undefined, {
    staleTime: 0,
    refetchOnMount: 'always',
    refetchInterval: (query) => (isPreparing(query.state.data) ? TRAINING_POLL_MS : false),
  });
}

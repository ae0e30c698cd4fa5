import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onRecordsSynced, syncPendingRecords } from '@/lib/offline/sync.ts';
import { readStoredUser } from '@/lib/session-store.ts';

/**
 * Sends the signed-in learner's offline watching when the learner area opens and whenever the
 * browser gets its link back; after a sync the server answered, the data on screen is read again
 * (the player's parts unlock, the course home's test opens as online). Renders nothing.
 */
export function OfflineSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof indexedDB === 'undefined') return;
    const sync = () => {
      const userId = readStoredUser()?._id;
      if (userId && navigator.onLine !== false) void syncPendingRecords(userId).catch(() => undefined);
    };
    const stop = onRecordsSynced(() => void queryClient.invalidateQueries());
    sync();
    window.addEventListener('online', sync);
    return () => {
      stop();
      window.removeEventListener('online', sync);
    };
  }, [queryClient]);
  return null;
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onRecordsSynced, syncPendingRecords } from '@/lib/offline/sync.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';

/** After the link returns, tries again this long after a try that found no server (a link just back often carries nothing for a moment). */
const RETRY_AFTER_ONLINE_MS = [2_000, 5_000, 15_000];
/** While records wait and the browser says it is online, a try this often (a ship's link that says it is up and carries nothing). */
const RETRY_EVERY_MS = 60_000;

/**
 * Sends the signed-in learner's offline watching when the learner area opens and whenever the
 * browser gets its link back (again a little later if that try found no server, and every minute
 * while records wait); after a sync the server answered, the data on screen is read again (the
 * player's parts unlock, the course home's test opens as online). Renders nothing.
 */
export function OfflineSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof indexedDB === 'undefined') return;
    const timers: number[] = [];
    const sync = () => {
      const userId = readStoredUser()?._id;
      if (!userId || navigator.onLine === false) return Promise.resolve(true);
      return syncPendingRecords(userId).then(
        (outcome) => outcome.reached,
        () => false,
      );
    };
    const afterOnline = () => {
      for (const timer of timers.splice(0)) window.clearTimeout(timer);
      const attempt = (index: number) =>
        void sync().then((reached) => {
          const wait = RETRY_AFTER_ONLINE_MS[index];
          if (!reached && wait !== undefined) timers.push(window.setTimeout(() => attempt(index + 1), wait));
        });
      attempt(0);
    };
    const stop = onRecordsSynced(() => void queryClient.invalidateQueries());
    afterOnline();
    const every = window.setInterval(() => void sync(), RETRY_EVERY_MS);
    window.addEventListener('online', afterOnline);
    return () => {
      stop();
      window.clearInterval(every);
      for (const timer of timers) window.clearTimeout(timer);
      window.removeEventListener('online', afterOnline);
    };
  }, [queryClient]);
  return null;
}

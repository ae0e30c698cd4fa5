import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { TOfflineApi } from '@/lib/offline/downloads.ts';

/*
 * What the course lists and the course home do with the device's downloads on every visit. The
 * download code (IndexedDB, the download loop) comes only when a signed-in learner's screen asks
 * for it: the public catalogue shares these screens' file, and a visitor has nothing on the device.
 */

/** Whether this browser can keep courses at all (IndexedDB; some private modes have none). */
const canKeepDownloads = () => typeof indexedDB !== 'undefined';

const downloadsCode = () => import('@/lib/offline/downloads.ts');

/**
 * On opening a learner screen, and whenever the link comes back: drops the learner's downloads
 * whose enrolment ended (saying so in a toast) and continues the unfinished ones (keepDownloadsUp).
 */
export function useDownloadsUpkeep(api: TOfflineApi, userId: string | null) {
  useEffect(() => {
    if (!userId || !canKeepDownloads()) return;
    const upkeep = () =>
      void downloadsCode()
        .then(({ keepDownloadsUp }) => keepDownloadsUp(api, userId))
        .then(
          (removed) => removed.forEach((message) => toast.warning(message, { duration: 10_000 })),
          () => undefined,
        );
    upkeep();
    window.addEventListener('online', upkeep);
    return () => window.removeEventListener('online', upkeep);
  }, [api, userId]);
}

/** The courses this learner has wholly on this device, for a "Downloaded" mark in course lists. */
export function useDownloadedCourses(userId: string | null): ReadonlySet<string> {
  const [courses, setCourses] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (!userId || !canKeepDownloads()) return;
    let live = true;
    let unsubscribe = () => {};
    void downloadsCode().then(({ listDownloads, subscribeDownloads }) => {
      if (!live) return;
      const read = () =>
        listDownloads(userId).then(
          (rows) => live && setCourses(new Set(rows.filter((row) => row.state === 'complete').map((row) => row.courseId))),
          () => undefined,
        );
      void read();
      unsubscribe = subscribeDownloads((_key, kind) => kind === 'row' && void read());
    }, () => undefined);
    return () => {
      live = false;
      unsubscribe();
    };
  }, [userId]);
  return courses;
}

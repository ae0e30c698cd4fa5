import { useEffect, useReducer, useRef, useState } from 'react';
import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import type { TRenditionHeight } from '../../../shared/rendition-heights.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { spaceProblem } from '@/lib/offline/download-plan.ts';
import {
  dismissDownloadNotice,
  downloadInFlight,
  downloadNotice,
  pauseDownload,
  pendingWatching,
  removeDownload,
  resumeDownload,
  startDownload,
  storageEstimate,
  storedPackage,
  subscribeDownloads,
  type TOfflineApi,
} from '@/lib/offline/downloads.ts';
import { downloadKey, type TStoredDownload } from '@/lib/offline/offline-db.ts';

/** Whether this browser can keep courses at all (IndexedDB; some private modes have none). */
export const canKeepDownloads = () => typeof indexedDB !== 'undefined';

export type TOfflineHeight = TRenditionHeight;

/** What the learner is offered before a download starts: the package for the chosen quality, its size and whether it fits. */
export type TDownloadOffer = {
  height: TOfflineHeight;
  pkg: TOfflinePackage | null;
  checking: boolean;
  error: string | null;
  /** Why it does not fit on the device, or null. */
  space: string | null;
};

/**
 * One course's download on this device, for the course home: what is stored (re-read on every
 * change, in this tab or another), the bytes of the chunk under way, the offer before a start,
 * and the learner's actions.
 */
export function useCourseDownload(api: TOfflineApi, userId: string | null, courseId: string) {
  const supported = canKeepDownloads() && userId !== null;
  const key = userId ? downloadKey(userId, courseId) : '';
  const [download, setDownload] = useState<TStoredDownload | null | undefined>(supported ? undefined : null);
  const [, progressed] = useReducer((count: number) => count + 1, 0);

  useEffect(() => {
    if (!supported || !userId) return;
    let live = true;
    const read = () =>
      storedPackage(userId, courseId).then(
        (row) => live && setDownload(row),
        () => live && setDownload(null),
      );
    void read();
    const unsubscribe = subscribeDownloads((changed, kind) => {
      if (changed !== key) return;
      if (kind === 'row') void read();
      else progressed();
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [supported, userId, courseId, key]);

  // Packages asked for in this visit, by quality: changing one's mind does not make another download on the server.
  const offered = useRef(new Map<TOfflineHeight, TOfflinePackage>());
  const [offer, setOffer] = useState<TDownloadOffer | null>(null);

  const prepare = async (height: TOfflineHeight) => {
    const known = offered.current.get(height);
    setOffer({ height, pkg: known ?? null, checking: !known, error: null, space: null });
    try {
      const pkg = known ?? (await api.offlinePackage({ courseId, height }));
      offered.current.set(height, pkg);
      const space = spaceProblem(pkg.totalBytes, await storageEstimate(), pkg.height);
      setOffer((current) => (current?.height === height ? { height, pkg, checking: false, error: null, space } : current));
    } catch (error) {
      const message = errorMessage(error, { fallback: 'The download could not be prepared. Please try again.' });
      setOffer((current) => (current?.height === height ? { height, pkg: null, checking: false, error: message, space: null } : current));
    }
  };

  const start = async () => {
    if (!userId || !offer?.pkg || offer.space) return;
    const pkg = offer.pkg;
    offered.current.clear();
    setOffer(null);
    await startDownload(api, userId, pkg);
  };

  const notice = key ? downloadNotice(key) : null;
  return {
    supported,
    download,
    /** Bytes of the chunk under way, not yet stored. */
    inFlight: key && download?.state === 'downloading' ? downloadInFlight(key) : 0,
    notice,
    dismissNotice: () => key && dismissDownloadNotice(key),
    offer,
    prepare,
    cancelOffer: () => setOffer(null),
    start,
    pause: () => (userId ? pauseDownload(userId, courseId) : Promise.resolve()),
    resume: () => (userId ? resumeDownload(api, userId, courseId) : Promise.resolve()),
    remove: () => (userId ? removeDownload(userId, courseId) : Promise.resolve()),
    pendingWatching: () =>
      userId && download ? pendingWatching(userId, download.package.downloadId) : Promise.resolve({ records: 0, playedMs: 0 }),
  };
}

import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import { askToPersist } from '@/lib/offline/device-storage.ts';
import { announce, clearDownloadNotice } from '@/lib/offline/download-events.ts';
import { noteLinksFetched, type TOfflineApi } from '@/lib/offline/download-fetch.ts';
import { dropJob, ensureJob, removeForEndedEnrolment, startJob, stopJob } from '@/lib/offline/download-jobs.ts';
import { deleteDownloadData, listDownloads, updateDownload } from '@/lib/offline/download-store.ts';
import { downloadKey, offlineDb, type TStoredDownload } from '@/lib/offline/offline-db.ts';

/*
 * Courses kept on this device for study without a link (decision 050): each learner's downloads,
 * fetched in CHUNK_BYTES Range requests into IndexedDB (offline-db.ts), resumed after a dropped
 * link or a closed browser, removed when the learner asks or the enrolment ends.
 *
 * What the player reads (nothing here fetches; every call names the signed-in learner):
 *
 *   storedPackage(userId, courseId) → Promise<TStoredDownload | null>
 *     The course as the device keeps it: `package` (downloadId, recordKey, the parts in order with
 *     id, serial, title, durationSeconds, bytes, and the server's `completed` / `watchedSeconds`
 *     when the package was last fetched), `state` ('downloading' | 'paused' | 'complete') and
 *     `partBytes`. Null when this learner has not downloaded the course on this device.
 *   isPartStored(download, videoId) → boolean
 *     Every byte of the part is on the device (its Blob can be made), even while later parts are
 *     still downloading.
 *   partBlob(userId, courseId, videoId) → Promise<Blob | null>
 *     The part's media as one Blob of type video/mp4 (its chunks in order), or null when the part
 *     is not wholly on the device. Play it with URL.createObjectURL(blob); revoke the URL after.
 *   partPoster(userId, courseId, videoId) → Promise<Blob | null>
 *     The part's poster picture, when the server had one and it was stored.
 *   listDownloads(userId) → Promise<TStoredDownload[]>
 *   subscribeDownloads(listener) → unsubscribe
 *     `listener(key, kind)` on every change of a download in this tab or another ('row': stored
 *     state changed, read it again; 'progress': bytes of a chunk under way, downloadInFlight(key)).
 *
 * What the course home drives (each takes the learner's id and the three server calls, TOfflineApi):
 *   startDownload, pauseDownload, resumeDownload, removeDownload, keepDownloadsUp (on opening the
 *   app or the course home: drop the downloads whose enrolment ended, continue the unfinished).
 *
 * Stored in the `chunks` store: a part's media under [downloadKey, videoId, index] and its poster
 * under [downloadKey, `poster:${videoId}`, 0]. `storedBytes` and `partBytes` count media only, so
 * they can be compared with the renditions' sizes.
 *
 * The parts: download-store.ts (IndexedDB), download-events.ts (changes and notices),
 * download-fetch.ts (the fetch loop), download-jobs.ts (scheduling and retries) and
 * device-storage.ts (the browser's storage).
 */

export { storageEstimate } from '@/lib/offline/device-storage.ts';
export { dismissDownloadNotice, downloadInFlight, downloadNotice, subscribeDownloads, type TDownloadChange } from '@/lib/offline/download-events.ts';
export type { TOfflineApi } from '@/lib/offline/download-fetch.ts';
export { isPartStored, listDownloads, partBlob, partPoster, pendingWatching, storedPackage } from '@/lib/offline/download-store.ts';

/**
 * Starts keeping a course on the device from a package the server just gave (training.offlinePackage).
 * A download of the course already here (another quality) is replaced.
 */
export async function startDownload(api: TOfflineApi, userId: string, pkg: TOfflinePackage): Promise<void> {
  const courseId = pkg.course.id;
  const key = downloadKey(userId, courseId);
  stopJob(key);
  await deleteDownloadData(key);
  clearDownloadNotice(key);
  await askToPersist();
  const row: TStoredDownload = {
    key,
    userId,
    courseId,
    package: pkg,
    state: pkg.parts.length === 0 ? 'complete' : 'downloading',
    storedBytes: 0,
    partBytes: Object.fromEntries(pkg.parts.map((part) => [part.id, 0])),
    checkedAt: Date.now(),
    error: null,
  };
  await (await offlineDb()).put('downloads', row);
  noteLinksFetched(pkg.downloadId);
  announce(key);
  startJob(api, userId, courseId);
}

export async function pauseDownload(userId: string, courseId: string): Promise<void> {
  const key = downloadKey(userId, courseId);
  stopJob(key);
  await updateDownload(key, (row) => (row.state === 'downloading' ? { ...row, state: 'paused', error: null } : null));
}

export async function resumeDownload(api: TOfflineApi, userId: string, courseId: string): Promise<void> {
  const key = downloadKey(userId, courseId);
  const row = await updateDownload(key, (current) => (current.state === 'complete' ? null : { ...current, state: 'downloading', error: null }));
  if (row) {
    ensureJob(api, userId, courseId).failures = 0;
    startJob(api, userId, courseId);
  }
}

/** Removes a course's download from the device (its media); watch records not yet sent stay, to be sent. */
export async function removeDownload(userId: string, courseId: string): Promise<void> {
  const key = downloadKey(userId, courseId);
  dropJob(key);
  await deleteDownloadData(key);
  clearDownloadNotice(key);
  announce(key);
}

/** When the server was last asked which of a learner's downloads still work, in this page's life. */
const checkedAt = new Map<string, number>();
const CHECK_EVERY_MS = 60_000;

/**
 * On opening the app or a course home while online: asks the server which of the learner's
 * downloads still work and removes the others, then continues every download left unfinished
 * (a dropped link, a closed browser) with fresh links. Answers what was removed, in words for the
 * learner.
 */
export async function keepDownloadsUp(api: TOfflineApi, userId: string): Promise<string[]> {
  const removed: string[] = [];
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return removed;
  const downloads = await listDownloads(userId);
  if (downloads.length === 0) return removed;
  const last = checkedAt.get(userId);
  if (last === undefined || Date.now() - last > CHECK_EVERY_MS) {
    checkedAt.set(userId, Date.now());
    try {
      const ids = downloads.map((download) => download.package.downloadId);
      const active = new Set<string>();
      for (let at = 0; at < ids.length; at += 100) {
        for (const id of (await api.offlineStatus({ downloadIds: ids.slice(at, at + 100) })).active) active.add(id);
      }
      for (const download of downloads) {
        if (!active.has(download.package.downloadId)) {
          removed.push(await removeForEndedEnrolment(ensureJob(api, userId, download.courseId), download.key, { notice: false }));
        }
      }
    } catch {
      // No answer now: asked again on the next visit; the downloads carry on meanwhile.
      checkedAt.delete(userId);
    }
  }
  for (const download of await listDownloads(userId)) {
    if (download.state === 'downloading') startJob(api, userId, download.courseId);
  }
  return removed;
}

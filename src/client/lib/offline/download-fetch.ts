import type { TOfflinePackage, TOfflineStatus } from '../../../shared/schemas/offline.ts';
import type { TRenditionHeight } from '../../../shared/rendition-heights.ts';
import { readCounting } from '@/lib/read-counting.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { announce, clearInFlight, setInFlight } from '@/lib/offline/download-events.ts';
import { chunkRange, rangeHeader, resumePoint } from '@/lib/offline/download-plan.ts';
import { adoptPackage, posterId, StaleChunk, storedPackage, storeChunk, updateDownload } from '@/lib/offline/download-store.ts';
import { downloadKey, offlineDb } from '@/lib/offline/offline-db.ts';

/*
 * Fetching one download: fresh links from the server when they are due, then each missing chunk
 * by a Range request, stored as it comes (download-store.ts), until every part is on the device.
 * A failure is thrown to the scheduler (download-jobs.ts), which says why and tries again.
 */

/** The server calls a download needs: training.offlinePackage, offlineResume and offlineStatus. */
export type TOfflineApi = {
  offlinePackage(input: { courseId: string; height: TRenditionHeight }): Promise<TOfflinePackage>;
  offlineResume(input: { downloadId: string }): Promise<TOfflinePackage>;
  offlineStatus(input: { downloadIds: string[] }): Promise<TOfflineStatus>;
};

/** Links are bound to the session's stream pass, which lives 10 minutes: fresh links before it runs out. */
const LINK_REFRESH_MS = 8 * 60_000;

/** A download being fetched or waiting to be, in this page's life. */
export type TJob = {
  api: TOfflineApi;
  userId: string;
  courseId: string;
  controller: AbortController | null;
  retryTimer: ReturnType<typeof setTimeout> | null;
  failures: number;
};

/** When each download's links were last given by the server, in this page's life. */
const linksFetchedAt = new Map<string, number>();

/** The server just gave the download's links. */
export function noteLinksFetched(downloadId: string): void {
  linksFetchedAt.set(downloadId, Date.now());
}

/** The media route or the server refused the download: its links are renewed once, then the server is asked why. */
export class Refused extends Error {
  constructor(readonly status: number) {
    super(`refused: ${status}`);
  }
}
/** The server answered something other than the bytes asked for. */
class ServerTrouble extends Error {}

async function fetchPoster(key: string, userId: string, videoId: string, url: string, signal: AbortSignal): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin', signal });
  // A poster the server will not give is left out: the part plays without it.
  if (!response.ok) return;
  const blob = await response.blob();
  await (await offlineDb()).put('chunks', { key: [key, posterId(videoId), 0], userId, blob });
}

export async function drive(job: TJob, signal: AbortSignal): Promise<void> {
  const key = downloadKey(job.userId, job.courseId);
  const postersTried = new Set<string>();
  let renewedAfterRefusal = false;
  let lastProgress = 0;
  while (!signal.aborted) {
    // Signed out, or another learner signed in on this browser: the download waits for its owner.
    if (readStoredUser()?._id !== job.userId) return;
    let download = await storedPackage(job.userId, job.courseId);
    if (!download || download.state !== 'downloading') return;
    const { downloadId } = download.package;

    const linksAt = linksFetchedAt.get(downloadId);
    if (linksAt === undefined || Date.now() - linksAt > LINK_REFRESH_MS) {
      const pkg = await job.api.offlineResume({ downloadId });
      if (signal.aborted) return;
      linksFetchedAt.set(downloadId, Date.now());
      download = await adoptPackage(key, pkg);
      if (!download) return;
      continue;
    }

    const point = resumePoint(download.package.parts, download.partBytes);
    if (!point) {
      await updateDownload(key, (row) =>
        row.package.downloadId === downloadId ? { ...row, state: 'complete', error: null, checkedAt: Date.now() } : null,
      );
      return;
    }
    const part = download.package.parts[point.partIndex]!;

    if (part.posterUrl && point.chunk === 0 && !postersTried.has(part.id)) {
      postersTried.add(part.id);
      await fetchPoster(key, job.userId, part.id, part.posterUrl, signal);
      continue;
    }

    const response = await fetch(part.url, {
      headers: { Range: rangeHeader(part.bytes, point.chunk) },
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      void response.body?.cancel();
      if (renewedAfterRefusal) throw new Refused(response.status);
      // The pass may have run out (a long pause, a closed laptop): fresh links, then once more.
      renewedAfterRefusal = true;
      linksFetchedAt.delete(downloadId);
      continue;
    }
    const { start, end } = chunkRange(part.bytes, point.chunk);
    const expected = end - start + 1;
    // 206 with the range; a part of one chunk may come whole (200).
    if (response.status !== 206 && !(response.status === 200 && start === 0 && expected === part.bytes)) {
      void response.body?.cancel();
      throw new ServerTrouble(`status ${response.status}`);
    }
    const blob = await readCounting(response, (bytes) => {
      setInFlight(key, bytes);
      const now = Date.now();
      if (now - lastProgress > 250) {
        lastProgress = now;
        announce(key, 'progress');
      }
    });
    clearInFlight(key);
    if (blob.size !== expected) throw new ServerTrouble(`${blob.size} bytes for ${expected}`);
    try {
      await storeChunk(key, downloadId, part.id, point.chunk, blob, job.userId);
    } catch (error) {
      if (error instanceof StaleChunk) continue;
      throw error;
    }
    renewedAfterRefusal = false;
    job.failures = 0;
    announce(key);
  }
}

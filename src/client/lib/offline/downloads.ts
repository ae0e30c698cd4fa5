import { TRPCClientError } from '@trpc/client';
import type { TOfflinePackage, TOfflineStatus } from '../../../shared/schemas/offline.ts';
import { httpStatusOf, serverAnswered } from '@/lib/api-errors.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { DOWNLOAD_MESSAGES, carryOver, chunkCount, chunkRange, rangeHeader, resumePoint, storedTotal } from '@/lib/offline/download-plan.ts';
import { CHUNK_BYTES, downloadKey, offlineDb, type TStoredDownload } from '@/lib/offline/offline-db.ts';

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
 */

/** The server calls a download needs: training.offlinePackage, offlineResume and offlineStatus. */
export type TOfflineApi = {
  offlinePackage(input: { courseId: string; height: 360 | 720 }): Promise<TOfflinePackage>;
  offlineResume(input: { downloadId: string }): Promise<TOfflinePackage>;
  offlineStatus(input: { downloadIds: string[] }): Promise<TOfflineStatus>;
};

// ---------------------------------------------------------------------------------------------
// Reading what is on the device

const posterId = (videoId: string) => `poster:${videoId}`;
/** Every chunk of one part (or its poster) of a download: [key, id, 0…]. */
const partChunks = (key: string, id: string) => IDBKeyRange.bound([key, id, 0], [key, id, Number.MAX_SAFE_INTEGER]);
/** Every chunk of a download: array keys sort after strings and numbers, so [key, []] closes the range. */
const downloadChunks = (key: string) => IDBKeyRange.bound([key], [key, []]);

export async function storedPackage(userId: string, courseId: string): Promise<TStoredDownload | null> {
  const row = await (await offlineDb()).get('downloads', downloadKey(userId, courseId));
  return row && row.userId === userId ? row : null;
}

export async function listDownloads(userId: string): Promise<TStoredDownload[]> {
  return (await offlineDb()).getAllFromIndex('downloads', 'byUser', userId);
}

export function isPartStored(download: Pick<TStoredDownload, 'package' | 'partBytes'>, videoId: string): boolean {
  const part = download.package.parts.find((candidate) => candidate.id === videoId);
  // A part the server had no media for (0 bytes) is never playable from the device.
  return Boolean(part && part.bytes > 0 && (download.partBytes[videoId] ?? 0) >= part.bytes);
}

export async function partBlob(userId: string, courseId: string, videoId: string): Promise<Blob | null> {
  const download = await storedPackage(userId, courseId);
  const part = download?.package.parts.find((candidate) => candidate.id === videoId);
  if (!download || !part || !isPartStored(download, videoId)) return null;
  const chunks = await (await offlineDb()).getAll('chunks', partChunks(download.key, videoId));
  // Keys sort by index, so the chunks come in order; a missing or short one means no playable part.
  if (chunks.length !== chunkCount(part.bytes)) return null;
  const blob = new Blob(
    chunks.map((chunk) => chunk.blob),
    { type: 'video/mp4' },
  );
  return blob.size === part.bytes ? blob : null;
}

export async function partPoster(userId: string, courseId: string, videoId: string): Promise<Blob | null> {
  const key = downloadKey(userId, courseId);
  const chunk = await (await offlineDb()).get('chunks', [key, posterId(videoId), 0]);
  return chunk && chunk.userId === userId ? chunk.blob : null;
}

/** The watching recorded offline under a download and not yet sent: how many records, how long played. */
export async function pendingWatching(userId: string, downloadId: string): Promise<{ records: number; playedMs: number }> {
  const records = await (await offlineDb()).getAllFromIndex(
    'records',
    'byDownloadSeq',
    IDBKeyRange.bound([downloadId, 0], [downloadId, Number.MAX_SAFE_INTEGER]),
  );
  const pending = records.filter((row) => row.userId === userId && row.state === 'pending');
  return { records: pending.length, playedMs: pending.reduce((sum, row) => sum + row.record.playedMs, 0) };
}

// ---------------------------------------------------------------------------------------------
// Changes, in this tab and the others

export type TDownloadChange = 'row' | 'progress';
type TListener = (key: string, kind: TDownloadChange) => void;

const listeners = new Set<TListener>();
let channel: BroadcastChannel | null = null;

function openChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel('academy-offline-downloads');
  channel.onmessage = (event: MessageEvent<{ key: string; kind: TDownloadChange; inFlight?: number; notice?: string }>) => {
    const { key, kind, inFlight: bytes, notice } = event.data;
    if (bytes !== undefined) inFlight.set(key, bytes);
    if (notice) notices.set(key, notice);
    for (const listener of listeners) listener(key, kind);
  };
  return channel;
}

export function subscribeDownloads(listener: TListener): () => void {
  openChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announce(key: string, kind: TDownloadChange = 'row') {
  for (const listener of listeners) listener(key, kind);
  openChannel()?.postMessage({ key, kind, inFlight: inFlight.get(key), notice: notices.get(key) });
}

/** Bytes of the chunk under way (not yet stored), for a progress bar that moves on a slow link. */
const inFlight = new Map<string, number>();
export function downloadInFlight(key: string): number {
  return inFlight.get(key) ?? 0;
}

/** Why a download left the device without the learner asking (the enrolment ended), for the course home to say. */
const notices = new Map<string, string>();
export function downloadNotice(key: string): string | null {
  return notices.get(key) ?? null;
}
export function dismissDownloadNotice(key: string): void {
  if (notices.delete(key)) announce(key);
}

// ---------------------------------------------------------------------------------------------
// Writing

async function updateDownload(key: string, change: (row: TStoredDownload) => TStoredDownload | null): Promise<TStoredDownload | null> {
  const db = await offlineDb();
  const tx = db.transaction('downloads', 'readwrite');
  const row = await tx.store.get(key);
  const next = row ? change(row) : null;
  if (next) await tx.store.put(next);
  await tx.done;
  if (next) announce(key);
  return next;
}

/** Deletes a download and its media (chunks and posters). Its watch records stay: they are sent when the device is online. */
async function deleteDownloadData(key: string): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction(['downloads', 'chunks'], 'readwrite');
  await Promise.all([tx.objectStore('chunks').delete(downloadChunks(key)), tx.objectStore('downloads').delete(key), tx.done]);
}

/**
 * Takes a package the server gave again (fresh links, the server's progress now) for a download
 * under way: parts whose media is unchanged keep their chunks, a part re-made since (another
 * size) or gone from the course loses them.
 */
async function adoptPackage(key: string, pkg: TOfflinePackage): Promise<TStoredDownload | null> {
  const db = await offlineDb();
  const tx = db.transaction(['downloads', 'chunks'], 'readwrite');
  const downloads = tx.objectStore('downloads');
  const chunks = tx.objectStore('chunks');
  const row = await downloads.get(key);
  if (!row || row.package.downloadId !== pkg.downloadId) {
    await tx.done;
    return null;
  }
  const { partBytes, drop, gone } = carryOver(row.package.parts, row.partBytes, pkg.parts);
  for (const videoId of drop) await chunks.delete(partChunks(key, videoId));
  for (const videoId of gone) {
    await chunks.delete(partChunks(key, videoId));
    await chunks.delete(partChunks(key, posterId(videoId)));
  }
  const storedBytes = storedTotal(pkg.parts, partBytes);
  const next: TStoredDownload = {
    ...row,
    package: pkg,
    partBytes,
    storedBytes,
    state: row.state === 'complete' && storedBytes < pkg.totalBytes ? 'downloading' : row.state,
    checkedAt: Date.now(),
  };
  await downloads.put(next);
  await tx.done;
  announce(key);
  return next;
}

class StaleChunk extends Error {}

/**
 * Stores one chunk and counts it, in one transaction: the bytes counted are always the bytes
 * stored. A chunk the download no longer wants (removed, replaced, already stored by another tab)
 * is dropped.
 */
async function storeChunk(key: string, downloadId: string, videoId: string, index: number, blob: Blob, userId: string): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction(['downloads', 'chunks'], 'readwrite');
  const downloads = tx.objectStore('downloads');
  const row = await downloads.get(key);
  const stored = row?.partBytes[videoId] ?? 0;
  if (!row || row.package.downloadId !== downloadId || stored !== index * CHUNK_BYTES) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new StaleChunk();
  }
  await tx.objectStore('chunks').put({ key: [key, videoId, index], userId, blob });
  const partBytes = { ...row.partBytes, [videoId]: stored + blob.size };
  await downloads.put({ ...row, partBytes, storedBytes: storedTotal(row.package.parts, partBytes), error: null });
  await tx.done;
}

// ---------------------------------------------------------------------------------------------
// The download loop

/** Links are bound to the session's stream pass, which lives 10 minutes: fresh links before it runs out. */
const LINK_REFRESH_MS = 8 * 60_000;
/** Waits before trying again after a failure, longer each time (the `online` event cuts a wait short). */
const RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

type TJob = {
  api: TOfflineApi;
  userId: string;
  courseId: string;
  controller: AbortController | null;
  retryTimer: ReturnType<typeof setTimeout> | null;
  failures: number;
};

const jobs = new Map<string, TJob>();
/** When each download's links were last given by the server, in this page's life. */
const linksFetchedAt = new Map<string, number>();

/** The media route or the server refused the download: its links are renewed once, then the server is asked why. */
class Refused extends Error {
  constructor(readonly status: number) {
    super(`refused: ${status}`);
  }
}
/** The server answered something other than the bytes asked for. */
class ServerTrouble extends Error {}

/** Reads a response's body, saying how many bytes have come so far. */
async function readBody(response: Response, onBytes: (bytes: number) => void): Promise<Blob> {
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value as Uint8Array<ArrayBuffer>);
    received += value.byteLength;
    onBytes(received);
  }
  return new Blob(pieces);
}

async function fetchPoster(key: string, userId: string, videoId: string, url: string, signal: AbortSignal): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin', signal });
  // A poster the server will not give is left out: the part plays without it.
  if (!response.ok) return;
  const blob = await response.blob();
  await (await offlineDb()).put('chunks', { key: [key, posterId(videoId), 0], userId, blob });
}

async function drive(job: TJob, signal: AbortSignal): Promise<void> {
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
    const blob = await readBody(response, (bytes) => {
      inFlight.set(key, bytes);
      const now = Date.now();
      if (now - lastProgress > 250) {
        lastProgress = now;
        announce(key, 'progress');
      }
    });
    inFlight.delete(key);
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

const isQuotaError = (error: unknown) => error instanceof DOMException && error.name === 'QuotaExceededError';
/** The fetch failed without an answer: the link is down (or the browser is offline). */
const isNetworkFailure = (error: unknown) => error instanceof TypeError || (error instanceof TRPCClientError && !serverAnswered(error));

async function setError(key: string, error: string, state?: TStoredDownload['state']) {
  await updateDownload(key, (row) => ({ ...row, error, state: state ?? row.state }));
}

/** The enrolment ended: the download's media leaves the device. Answers why, in words for the learner. */
async function removeForEndedEnrolment(job: TJob, key: string, { notice = true } = {}): Promise<string> {
  const download = await storedPackage(job.userId, job.courseId);
  stopJob(key);
  jobs.delete(key);
  await deleteDownloadData(key);
  const message = DOWNLOAD_MESSAGES.enrolmentEnded(download?.package.course.title ?? 'this course');
  // Said on the course home when it is the one downloading; the caller says it otherwise.
  if (notice) notices.set(key, message);
  announce(key);
  return message;
}

async function afterFailure(job: TJob, key: string, error: unknown) {
  inFlight.delete(key);
  if (isQuotaError(error)) {
    await setError(key, DOWNLOAD_MESSAGES.noSpaceLeft, 'paused');
    return;
  }
  const status = error instanceof Refused ? error.status : httpStatusOf(error);
  if (status === 401 && !(error instanceof Refused)) {
    await setError(key, DOWNLOAD_MESSAGES.signInAgain);
    return;
  }
  if (error instanceof Refused || status === 403 || status === 404) {
    // Refused even with fresh links, or no fresh links given: the server says whether the download still works.
    const download = await storedPackage(job.userId, job.courseId);
    if (!download) return;
    let active: boolean;
    try {
      active = (await job.api.offlineStatus({ downloadIds: [download.package.downloadId] })).active.includes(download.package.downloadId);
    } catch (statusError) {
      const statusCode = httpStatusOf(statusError);
      if (statusCode === 403 || statusCode === 404) active = false;
      else return retryLater(job, key, isNetworkFailure(statusError) ? DOWNLOAD_MESSAGES.waitingForConnection : DOWNLOAD_MESSAGES.serverTrouble);
    }
    if (!active) await removeForEndedEnrolment(job, key);
    else await setError(key, DOWNLOAD_MESSAGES.refused, 'paused');
    return;
  }
  const offline = isNetworkFailure(error) || (typeof navigator !== 'undefined' && navigator.onLine === false);
  await retryLater(job, key, offline ? DOWNLOAD_MESSAGES.waitingForConnection : DOWNLOAD_MESSAGES.serverTrouble);
}

async function retryLater(job: TJob, key: string, message: string) {
  await setError(key, message);
  const delay = RETRY_DELAYS_MS[Math.min(job.failures, RETRY_DELAYS_MS.length - 1)]!;
  job.failures += 1;
  if (job.retryTimer) clearTimeout(job.retryTimer);
  job.retryTimer = setTimeout(() => {
    job.retryTimer = null;
    runJob(job);
  }, delay);
}

type TLocks = { request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<void> };

/** Runs a job unless it is running: one tab at a time downloads a course (a Web Lock per download, where the browser has them). */
function runJob(job: TJob) {
  if (job.controller) return;
  const key = downloadKey(job.userId, job.courseId);
  const controller = new AbortController();
  job.controller = controller;
  const work = async () => {
    try {
      await drive(job, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) await afterFailure(job, key, error);
    }
  };
  const locks = (typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: TLocks }).locks : undefined) ?? null;
  const running = locks ? locks.request(`academy-offline:${key}`, { signal: controller.signal }, work) : work();
  void running
    .catch(() => undefined)
    .finally(() => {
      inFlight.delete(key);
      if (job.controller === controller) job.controller = null;
    });
}

function ensureJob(api: TOfflineApi, userId: string, courseId: string): TJob {
  const key = downloadKey(userId, courseId);
  let job = jobs.get(key);
  if (!job) {
    job = { api, userId, courseId, controller: null, retryTimer: null, failures: 0 };
    jobs.set(key, job);
  }
  job.api = api;
  return job;
}

function startJob(api: TOfflineApi, userId: string, courseId: string) {
  const job = ensureJob(api, userId, courseId);
  if (job.retryTimer) clearTimeout(job.retryTimer);
  job.retryTimer = null;
  runJob(job);
}

function stopJob(key: string) {
  const job = jobs.get(key);
  if (!job) return;
  if (job.retryTimer) clearTimeout(job.retryTimer);
  job.retryTimer = null;
  job.controller?.abort();
  job.controller = null;
  inFlight.delete(key);
}

// The link is back: every download waiting for it carries on from its first missing chunk now.
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    for (const job of jobs.values()) {
      if (job.retryTimer === null) continue;
      job.failures = 0;
      startJob(job.api, job.userId, job.courseId);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// What the course home drives

/** Asks the browser to keep the site's storage when space runs low (it may say no; the download goes on). */
async function askToPersist() {
  try {
    await navigator.storage?.persist?.();
  } catch {
    // Not offered here: nothing to do.
  }
}

/** The browser's account of the site's storage, or null when it gives none. */
export async function storageEstimate(): Promise<{ quota?: number; usage?: number } | null> {
  try {
    return (await navigator.storage?.estimate?.()) ?? null;
  } catch {
    return null;
  }
}

/**
 * Starts keeping a course on the device from a package the server just gave (training.offlinePackage).
 * A download of the course already here (another quality) is replaced.
 */
export async function startDownload(api: TOfflineApi, userId: string, pkg: TOfflinePackage): Promise<void> {
  const courseId = pkg.course.id;
  const key = downloadKey(userId, courseId);
  stopJob(key);
  await deleteDownloadData(key);
  notices.delete(key);
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
  linksFetchedAt.set(pkg.downloadId, Date.now());
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
  stopJob(key);
  jobs.delete(key);
  await deleteDownloadData(key);
  notices.delete(key);
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

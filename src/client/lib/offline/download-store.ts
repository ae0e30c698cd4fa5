import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import { announce } from '@/lib/offline/download-events.ts';
import { carryOver, chunkCount, storedTotal } from '@/lib/offline/download-plan.ts';
import { CHUNK_BYTES, downloadKey, offlineDb, type TStoredDownload } from '@/lib/offline/offline-db.ts';

/*
 * The downloads as IndexedDB keeps them (offline-db.ts): reading a course's package and its parts'
 * media, and the writes the download makes, each in one transaction. A part's media is stored
 * under [downloadKey, videoId, index] and its poster under [downloadKey, `poster:${videoId}`, 0].
 */


export const posterId = (videoId: string) => `poster:${videoId}`;
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


export async function updateDownload(key: string, change: (row: TStoredDownload) => TStoredDownload | null): Promise<TStoredDownload | null> {
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
export async function deleteDownloadData(key: string): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction(['downloads', 'chunks'], 'readwrite');
  await Promise.all([tx.objectStore('chunks').delete(downloadChunks(key)), tx.objectStore('downloads').delete(key), tx.done]);
}

/**
 * Takes a package the server gave again (fresh links, the server's progress now) for a download
 * under way: parts whose media is unchanged keep their chunks, a part re-made since (another
 * size) or gone from the course loses them.
 */
export async function adoptPackage(key: string, pkg: TOfflinePackage): Promise<TStoredDownload | null> {
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

export class StaleChunk extends Error {}

/**
 * Stores one chunk and counts it, in one transaction: the bytes counted are always the bytes
 * stored. A chunk the download no longer wants (removed, replaced, already stored by another tab)
 * is dropped.
 */
export async function storeChunk(key: string, downloadId: string, videoId: string, index: number, blob: Blob, userId: string): Promise<void> {
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

import type { TOfflinePackage } from '../../../shared/schemas/offline.ts';
import { SMALLEST_RENDITION_HEIGHT } from '../../../shared/rendition-heights.ts';
import { CHUNK_BYTES, type TStoredDownload } from '@/lib/offline/offline-db.ts';

/*
 * The arithmetic of a download, with no storage and no network: which bytes each chunk holds,
 * where a download resumes, how far it has got, and the words for sizes and free space. The
 * download loop (download-fetch.ts, download-store.ts) and the course home's panel use it; its
 * tests need no browser.
 */

/** How many chunks a part of `bytes` is stored in. */
export function chunkCount(bytes: number): number {
  return Math.ceil(Math.max(0, bytes) / CHUNK_BYTES);
}

/** The bytes chunk `index` of a part of `bytes` holds: [start, end], both included (as in a Range header). */
export function chunkRange(bytes: number, index: number): { start: number; end: number } {
  const start = index * CHUNK_BYTES;
  return { start, end: Math.min(start + CHUNK_BYTES, bytes) - 1 };
}

/** The Range header asking for chunk `index` of a part of `bytes`. */
export function rangeHeader(bytes: number, index: number): string {
  const { start, end } = chunkRange(bytes, index);
  return `bytes=${start}-${end}`;
}

/**
 * The first chunk of a part not yet on the device. Chunks are stored whole and in order, so the
 * bytes stored say it: every chunk but the last is CHUNK_BYTES long.
 */
export function firstMissingChunk(storedBytes: number): number {
  return Math.floor(Math.max(0, storedBytes) / CHUNK_BYTES);
}

/** The next chunk to fetch: the first part (in order) not complete, and its first missing chunk; null when all are here. */
export function resumePoint(
  parts: Pick<TOfflinePackage['parts'][number], 'id' | 'bytes'>[],
  partBytes: Record<string, number>,
): { videoId: string; partIndex: number; chunk: number } | null {
  for (const [partIndex, part] of parts.entries()) {
    const stored = partBytes[part.id] ?? 0;
    if (stored < part.bytes) return { videoId: part.id, partIndex, chunk: firstMissingChunk(stored) };
  }
  return null;
}

/** Bytes of media on the device over the package's parts (never more than each part's size). */
export function storedTotal(parts: Pick<TOfflinePackage['parts'][number], 'id' | 'bytes'>[], partBytes: Record<string, number>): number {
  return parts.reduce((sum, part) => sum + Math.min(part.bytes, partBytes[part.id] ?? 0), 0);
}

/**
 * What a download keeps when the server gives its package again (fresh links, the course as it
 * is now): a part whose media is the same size keeps its bytes; a part re-made since (another
 * size) starts again; a part gone from the course is dropped. Answers the bytes to keep and the
 * parts whose chunks must go.
 */
export function carryOver(
  before: Pick<TOfflinePackage['parts'][number], 'id' | 'bytes'>[],
  partBytes: Record<string, number>,
  after: Pick<TOfflinePackage['parts'][number], 'id' | 'bytes'>[],
): { partBytes: Record<string, number>; drop: string[]; gone: string[] } {
  const old = new Map(before.map((part) => [part.id, part]));
  const kept: Record<string, number> = {};
  const drop: string[] = [];
  for (const part of after) {
    const previous = old.get(part.id);
    old.delete(part.id);
    if (previous && previous.bytes === part.bytes) {
      kept[part.id] = Math.min(part.bytes, partBytes[part.id] ?? 0);
    } else {
      kept[part.id] = 0;
      if (previous) drop.push(part.id);
    }
  }
  return { partBytes: kept, drop, gone: [...old.keys()] };
}

/** Whole percent of a download on the device: 100 only when every byte is here. */
export function downloadPercent(storedBytes: number, totalBytes: number): number {
  if (totalBytes <= 0) return 100;
  if (storedBytes >= totalBytes) return 100;
  return Math.min(99, Math.floor((storedBytes / totalBytes) * 100));
}

/**
 * A size as the learner reads it: "850 KB", "4.2 MB", "38 MB", "1.3 GB" (decimal units, as phones
 * show their storage).
 */
export function formatBytes(bytes: number): string {
  const value = Math.max(0, bytes);
  if (value < 1000) return `${Math.round(value)} B`;
  if (value < 1_000_000) return `${Math.round(value / 1000)} KB`;
  if (value < 1_000_000_000) {
    const mb = value / 1_000_000;
    return mb < 10 ? `${trimmed(mb)} MB` : `${Math.round(mb)} MB`;
  }
  return `${trimmed(value / 1_000_000_000)} GB`;
}

/** One decimal, without a trailing ".0". */
const trimmed = (value: number) => {
  const text = (Math.round(value * 10) / 10).toFixed(1);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
};

/** "38 MB of 123 MB · 30 %" */
export function progressText(storedBytes: number, totalBytes: number): string {
  return `${formatBytes(storedBytes)} of ${formatBytes(totalBytes)} · ${downloadPercent(storedBytes, totalBytes)} %`;
}

/** "Available offline · 2 parts · 38 MB" */
export function availableText(download: Pick<TStoredDownload, 'package' | 'storedBytes'>): string {
  const count = download.package.parts.length;
  return `Available offline · ${count} part${count === 1 ? '' : 's'} · ${formatBytes(download.storedBytes)}`;
}

/** Room kept free beside a download: the browser needs some for the app itself and its caches. */
export const SPACE_MARGIN_BYTES = 20 * 1024 * 1024;

/**
 * Whether `neededBytes` fit in what the browser grants the site (navigator.storage.estimate()):
 * null when they fit or the browser does not say, otherwise the words for the learner.
 */
export function spaceProblem(neededBytes: number, estimate: { quota?: number; usage?: number } | null, height: number): string | null {
  if (!estimate || typeof estimate.quota !== 'number') return null;
  const free = Math.max(0, estimate.quota - (estimate.usage ?? 0));
  if (free >= neededBytes + SPACE_MARGIN_BYTES) return null;
  const smaller = height > SMALLEST_RENDITION_HEIGHT ? ` Choose ${SMALLEST_RENDITION_HEIGHT}p for a smaller download, or free` : ' Free';
  return (
    `This download needs ${formatBytes(neededBytes)}, and this device has ${formatBytes(free)} free for the portal.` +
    `${smaller} some space on the device and try again.`
  );
}

/** What the course home says about a download that stopped or left the device. */
export const DOWNLOAD_MESSAGES = {
  waitingForConnection: 'Waiting for a connection… The download carries on by itself when the link is back.',
  serverTrouble: 'The academy’s server did not answer. Trying again shortly…',
  signInAgain: 'Your session has ended. Sign in again to carry on with the download.',
  noSpaceLeft: 'This device ran out of space. Free some space, then resume the download.',
  refused: 'The academy’s server refused the download just now. Resume it to try again.',
  enrolmentEnded: (title: string) =>
    `Your enrolment in ${title} has ended, so its download was removed from this device.`,
} as const;

import { SMALLEST_RENDITION_HEIGHT } from '../../../shared/rendition-heights.ts';
import type { TVideoSource } from '../../../shared/schemas/training.ts';

/** Where the learner's own choice of picture size is kept, so it holds on every part and visit. */
export const QUALITY_STORAGE_KEY = 'trainingVideoQuality';
/** The size played on a slow link or with data saver on, when the learner has not chosen. */
const LOW_DATA_HEIGHT = SMALLEST_RENDITION_HEIGHT;

/** What the browser says of its link (Network Information API; Chromium only, hence all optional). */
export type TConnectionHints = { saveData?: boolean; effectiveType?: string };

/** 'auto' follows the link; a number is the height the learner chose. */
export type TQualityPreference = 'auto' | number;

/** Whether the browser reports data saver or a link too slow for the large picture. */
export function prefersLowData(connection: TConnectionHints | undefined): boolean {
  if (!connection) return false;
  return connection.saveData === true || ['slow-2g', '2g', '3g'].includes(connection.effectiveType ?? '');
}

/**
 * The rendition to play, from a part's sources (largest first, as the server lists them): the
 * learner's choice, or the nearest smaller one when this part has no such size (a small original
 * has only one); on 'auto', 360p or smaller on a slow link or with data saver, else the largest.
 */
export function chooseSource(
  sources: readonly TVideoSource[],
  preference: TQualityPreference,
  connection: TConnectionHints | undefined,
): TVideoSource | undefined {
  const bySize = [...sources].sort((a, b) => b.height - a.height);
  const smallest = bySize[bySize.length - 1];
  if (preference === 'auto') {
    if (!prefersLowData(connection)) return bySize[0];
    return bySize.find((source) => source.height <= LOW_DATA_HEIGHT) ?? smallest;
  }
  return bySize.find((source) => source.height <= preference) ?? smallest;
}

/** The stored choice, or 'auto' when there is none (or storage is unavailable). */
export function readQualityPreference(storage: Pick<Storage, 'getItem'> | undefined): TQualityPreference {
  try {
    const stored = storage?.getItem(QUALITY_STORAGE_KEY);
    const height = Number(stored);
    return stored && Number.isInteger(height) && height > 0 ? height : 'auto';
  } catch {
    return 'auto';
  }
}

/** Keeps the learner's choice; 'auto' forgets it. Storage that refuses (private mode, full) is no reason to fail. */
export function writeQualityPreference(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, preference: TQualityPreference): void {
  try {
    if (preference === 'auto') storage?.removeItem(QUALITY_STORAGE_KEY);
    else storage?.setItem(QUALITY_STORAGE_KEY, String(preference));
  } catch {
    // The choice then lasts for this visit only.
  }
}

/** The browser's link hints, where it gives them. */
export function browserConnection(): TConnectionHints | undefined {
  return (navigator as Navigator & { connection?: TConnectionHints }).connection;
}

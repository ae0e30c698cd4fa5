import { isStoredName, type FileStorage, type TFileArea, type TStorageEntry } from './storage.ts';

export const SWEEP_AGE_MS = 60 * 60_000;
/** How often the sweep runs (a scheduled task, src/server/jobs.ts). */
export const SWEEP_INTERVAL_MS = 60 * 60_000;

/** The names of an area's files that rows point to now. */
export type TReferencedNames = (area: TFileArea) => Promise<ReadonlySet<string>>;

export type TSweepResult = { partialRemoved: number; orphansRemoved: number; scanned: number; ms: number };

type TSweepable = Pick<FileStorage, 'entries' | 'removeEntry'>;

/**
 * Removes what a crash or a kill mid-upload leaves behind: unfinished uploads (`.part` files on
 * disk, unfinished multipart uploads in a bucket), and stored files no row points to, both once
 * older than `olderThanMs` (an upload still running or a change about to commit is younger). Only
 * the areas in `referenced` are swept, and a file any row points to is never removed.
 */
export async function sweepStoredFiles(
  storage: TSweepable,
  referenced: Partial<Record<TFileArea, TReferencedNames>>,
  options: { olderThanMs?: number; now?: number } = {},
): Promise<TSweepResult> {
  const started = performance.now();
  const cutoff = (options.now ?? Date.now()) - (options.olderThanMs ?? SWEEP_AGE_MS);
  const result = { partialRemoved: 0, orphansRemoved: 0, scanned: 0 };
  for (const [area, namesOf] of Object.entries(referenced) as Array<[TFileArea, TReferencedNames]>) {
    const oldStored: TStorageEntry[] = [];
    for await (const entry of storage.entries(area)) {
      result.scanned += 1;
      if (!entry.partial && !isStoredName(entry.name)) continue;
      if (entry.modifiedMs > cutoff) continue;
      if (entry.partial) {
        await storage.removeEntry(area, entry);
        result.partialRemoved += 1;
      } else {
        oldStored.push(entry);
      }
    }
    if (oldStored.length === 0) continue;
    // Read after the listing: a row committed meanwhile still keeps its file.
    const names = await namesOf(area);
    for (const entry of oldStored) {
      if (names.has(entry.name)) continue;
      await storage.removeEntry(area, entry);
      result.orphansRemoved += 1;
    }
  }
  return { ...result, ms: Math.round(performance.now() - started) };
}

import type { TOfflineSyncResult } from '../../../shared/schemas/offline.ts';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';
import { type TRecordAnswer, markAnswered, recordsOfUser } from '@/lib/offline/watch-records.ts';

/*
 * Sends the watch records a device kept offline (decision 050): each download's pending records
 * in their order, at most RECORDS_PER_SYNC a request, to the REST path the service worker's
 * background sync also replays. The path needs no access token (the records' signatures are their
 * proof), so records go even when the session expired at sea. Sending a record twice (this and a
 * replay by the service worker, two tabs) is harmless: the server answers it 'duplicate' with what
 * it decided the first time.
 */

export const OFFLINE_SYNC_PATH = '/api/trainingVideo/offline/sync';

/**
 * OFFLINE_SYNC_MAX_RECORDS of shared/schemas/offline.ts (sync.test.ts checks they agree): a value
 * from a schema file would bring zod to every learner page this module is on.
 */
export const RECORDS_PER_SYNC = 500;

/** The server had not taken these yet: they stay pending and go again (the server keeps nothing of them). */
const NOT_TAKEN_YET = 'earlier records not received yet';

export type TSyncOutcome = {
  /** Whether the server answered at all (the link is up). */
  reached: boolean;
  /** Records the server answered in this round. */
  answered: number;
  credited: number;
  refused: number;
};

const syncedListeners = new Set<(outcome: TSyncOutcome) => void>();
const beforeSync = new Set<() => Promise<unknown>>();

/**
 * Runs `step` before each sync: the player's heartbeats still owed from before the link dropped go
 * first, so the server measures their playing time from their own start, not from the records'
 * sync (which moves its clock on).
 */
export function runBeforeSync(step: () => Promise<unknown>): () => void {
  beforeSync.add(step);
  return () => beforeSync.delete(step);
}

/** Calls `listener` after each sync in which the server answered records (to refetch what they changed). */
export function onRecordsSynced(listener: (outcome: TSyncOutcome) => void): () => void {
  syncedListeners.add(listener);
  return () => syncedListeners.delete(listener);
}

function byDownload(records: readonly TStoredRecord[]): Map<string, TStoredRecord[]> {
  const groups = new Map<string, TStoredRecord[]>();
  for (const record of records) {
    if (record.state !== 'pending') continue;
    const group = groups.get(record.downloadId) ?? [];
    group.push(record);
    groups.set(record.downloadId, group);
  }
  return groups;
}

class LinkDown extends Error {}

async function post(downloadId: string, records: readonly TStoredRecord[]): Promise<TOfflineSyncResult | null> {
  let response: Response;
  try {
    response = await fetch(OFFLINE_SYNC_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ downloadId, records: records.map((stored) => stored.record) }),
    });
  } catch {
    throw new LinkDown();
  }
  // An answer without results (the download is gone, the server in trouble): the records wait.
  if (!response.ok) return null;
  const body = (await response.json().catch(() => null)) as TOfflineSyncResult | { data: TOfflineSyncResult } | null;
  const result = body && 'data' in body ? body.data : body;
  return result && Array.isArray(result.results) ? result : null;
}

async function sendPending(userId: string): Promise<TSyncOutcome> {
  const outcome: TSyncOutcome = { reached: false, answered: 0, credited: 0, refused: 0 };
  const groups = byDownload(await recordsOfUser(userId));
  for (const [downloadId, pending] of groups) {
    for (let start = 0; start < pending.length; start += RECORDS_PER_SYNC) {
      const batch = pending.slice(start, start + RECORDS_PER_SYNC);
      let result: TOfflineSyncResult | null;
      try {
        result = await post(downloadId, batch);
      } catch (error) {
        if (error instanceof LinkDown) return outcome;
        throw error;
      }
      outcome.reached = true;
      if (!result) break;
      const answers: TRecordAnswer[] = result.results.filter((answer) => !(answer.outcome === 'refused' && answer.reason === NOT_TAKEN_YET));
      await markAnswered(userId, answers);
      outcome.answered += answers.length;
      outcome.credited += answers.filter((answer) => answer.outcome === 'credited').length;
      outcome.refused += answers.filter((answer) => answer.outcome === 'refused').length;
      // Some of the batch not taken: the later ones would not be either; the next sync tries again.
      if (answers.length < batch.length) break;
    }
  }
  return outcome;
}

const running = new Map<string, Promise<TSyncOutcome>>();
const again = new Set<string>();

/**
 * Sends the learner's pending records, if any. One round at a time per learner in this tab: a call
 * during a round asks for another once it ends (records written meanwhile go then).
 */
export function syncPendingRecords(userId: string): Promise<TSyncOutcome> {
  const current = running.get(userId);
  if (current) {
    again.add(userId);
    return current;
  }
  const round = (async () => {
    const total: TSyncOutcome = { reached: false, answered: 0, credited: 0, refused: 0 };
    do {
      again.delete(userId);
      await Promise.all([...beforeSync].map((step) => step().catch(() => undefined)));
      const outcome = await sendPending(userId);
      total.reached ||= outcome.reached;
      total.answered += outcome.answered;
      total.credited += outcome.credited;
      total.refused += outcome.refused;
      if (!outcome.reached) break;
    } while (again.has(userId));
    return total;
  })().finally(() => running.delete(userId));
  running.set(userId, round);
  return round.then((total) => {
    if (total.answered > 0) for (const listener of syncedListeners) listener(total);
    return total;
  });
}

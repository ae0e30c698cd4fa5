import type { TOfflineWatchRecord } from '../../../shared/schemas/offline.ts';
import { type TRecordChain, type TStoredRecord, offlineDb } from '@/lib/offline/offline-db.ts';
import { signRecord } from '@/lib/offline/record-signing.ts';

/*
 * The watch records this device keeps for a learner's downloaded course while it has no link:
 * one per span played, numbered in each download's chain and signed with the download's key, so
 * the server takes each once, in order, and refuses one edited after it was written (decision 050).
 * Every read and write names the learner: another learner on the same browser never sees them.
 */

/** Whose records and which download they belong to. */
export type TRecordOwner = { userId: string; courseId: string; downloadId: string; recordKey: string };

/** A span played offline, as the player measured it. */
export type TPlayedSpan = Pick<TOfflineWatchRecord, 'videoId' | 'from' | 'to' | 'startedAt' | 'endedAt' | 'playedMs'>;

const listeners = new Set<() => void>();

/** Calls `listener` whenever this tab writes, sends or removes records. */
export function subscribeRecords(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceRecordsChanged(): void {
  for (const listener of listeners) listener();
}

/**
 * Two tabs of the same learner writing to one chain would give two records one place: where the
 * browser has Web Locks, one write at a time per download, across tabs; in this tab, one after
 * the other in any case.
 */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(name: string, task: () => Promise<T>): Promise<T> {
  const locked = () => (typeof navigator !== 'undefined' && navigator.locks ? navigator.locks.request(name, task) : task());
  const next = queue.then(locked, locked);
  queue = next.catch(() => undefined);
  return next;
}

/**
 * Signs `span` as the next record of its download's chain and keeps it, waiting to be sent. Its
 * device times never run back before the previous record's end (the server refuses that), so a
 * wall clock set back while playing loses nothing. Spans shorter than a twentieth of a second are
 * not kept.
 */
export async function appendRecord(owner: TRecordOwner, span: TPlayedSpan): Promise<TStoredRecord | null> {
  if (!(span.to - span.from >= 0.05)) return null;
  const stored = await oneAtATime(`offline-records:${owner.downloadId}`, async () => {
    const db = await offlineDb();
    const chain: TRecordChain = (await db.get('chains', owner.downloadId)) ?? {
      downloadId: owner.downloadId,
      userId: owner.userId,
      nextSeq: 1,
      lastSignature: null,
    };
    const previous = chain.nextSeq > 1 ? await db.getFromIndex('records', 'byDownloadSeq', [owner.downloadId, chain.nextSeq - 1]) : undefined;
    const notBefore = previous?.record.endedAt ?? 0;
    const startedAt = Math.max(Math.round(span.startedAt), notBefore);
    const fields = {
      id: crypto.randomUUID(),
      seq: chain.nextSeq,
      videoId: span.videoId,
      from: Math.round(span.from * 1000) / 1000,
      to: Math.round(span.to * 1000) / 1000,
      startedAt,
      endedAt: Math.max(Math.round(span.endedAt), startedAt),
      playedMs: Math.max(0, Math.round(span.playedMs)),
      prev: chain.lastSignature,
    };
    // Signing is not an IndexedDB request: it happens between the read and the write's transaction.
    const signature = await signRecord(owner.recordKey, owner.downloadId, fields);
    const record: TStoredRecord = {
      id: fields.id,
      userId: owner.userId,
      courseId: owner.courseId,
      downloadId: owner.downloadId,
      record: { ...fields, signature },
      state: 'pending',
      outcome: null,
      reason: null,
      creditedSeconds: 0,
    };
    const tx = db.transaction(['records', 'chains'], 'readwrite');
    await Promise.all([
      tx.objectStore('records').put(record),
      tx.objectStore('chains').put({ ...chain, nextSeq: chain.nextSeq + 1, lastSignature: signature }),
      tx.done,
    ]);
    return record;
  });
  announceRecordsChanged();
  return stored;
}

/** The learner's records, each download's in their order. */
export async function recordsOfUser(userId: string): Promise<TStoredRecord[]> {
  const db = await offlineDb();
  const records = await db.getAllFromIndex('records', 'byUser', userId);
  return records.sort((a, b) => a.downloadId.localeCompare(b.downloadId) || a.record.seq - b.record.seq);
}

/** The learner's records of one course, each download's in their order. */
export async function recordsOfCourse(userId: string, courseId: string): Promise<TStoredRecord[]> {
  return (await recordsOfUser(userId)).filter((record) => record.courseId === courseId);
}

/** The server's answer to one record. A record it has not taken yet ('earlier records not received yet') stays pending. */
export type TRecordAnswer = { id: string; outcome: 'credited' | 'duplicate' | 'refused'; reason: string | null; creditedSeconds: number };

/**
 * Whether the server counted nothing of a sent record, for a reason: refused, or (sent again by
 * the service worker's background sync before this page) a duplicate of a refused one, which
 * answers 'duplicate' with the first answer's reason.
 */
export function notCounted(stored: Pick<TStoredRecord, 'state' | 'outcome' | 'reason' | 'creditedSeconds'>): boolean {
  return stored.state === 'sent' && (stored.outcome === 'refused' || (stored.reason !== null && stored.creditedSeconds === 0));
}

/** Keeps the server's answers with the learner's records: they are sent. */
export async function markAnswered(userId: string, answers: readonly TRecordAnswer[]): Promise<void> {
  if (answers.length === 0) return;
  const db = await offlineDb();
  const tx = db.transaction('records', 'readwrite');
  for (const answer of answers) {
    const record = await tx.store.get(answer.id);
    if (!record || record.userId !== userId) continue;
    await tx.store.put({ ...record, state: 'sent', outcome: answer.outcome, reason: answer.reason, creditedSeconds: answer.creditedSeconds });
  }
  await tx.done;
  announceRecordsChanged();
}

/**
 * At logout: the learner's records the server has answered go. Those still waiting stay: they are
 * this learner's (every read names the learner, so the next one to sign in on this browser never
 * sees them) and are sent when this learner next signs in. The chains stay too, so the next
 * record follows on from the last one the server took.
 */
export async function removeSentRecords(userId: string): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction('records', 'readwrite');
  for (const record of await tx.store.index('byUser').getAll(userId)) {
    if (record.state === 'sent') await tx.store.delete(record.id);
  }
  await tx.done;
  announceRecordsChanged();
}

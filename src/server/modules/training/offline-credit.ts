import { createHmac, timingSafeEqual } from 'node:crypto';
import { offlineRecordText } from '../../../shared/offline-record.ts';
import type { TOfflineWatchRecord } from '../../../shared/schemas/offline.ts';
import type { TWatchedInterval } from '../../db/schema/training.ts';
import { CLOCK_SLACK_SECONDS, clipToNewSeconds, isCompleted, mergeInterval, watchedSeconds } from './watched.ts';

/*
 * The rules for watching done offline (decision 050): a device keeps signed, numbered records of
 * what it played and sends them when it has a link; the server takes them in once each, in the
 * device's order, and credits them under the same rules as online watching (watched.ts), with the
 * real time since the download's media was fetched as the clock. Pure: the service reads the rows,
 * calls judgeOfflineRecords and writes what it answers, in one transaction.
 */

/** Why a record was not credited (in full), in the words the learner and the auditor read. */
export const OFFLINE_REFUSALS = {
  future: 'device time in the future',
  outOfOrder: 'device times out of order',
  edited: 'edited or replayed record',
  missingBefore: 'earlier records not received yet',
  beforeDownload: 'before the part was downloaded',
  locked: 'part still locked',
  beyondRealTime: 'beyond the real time since the download',
  outsidePart: 'outside the part',
  notInCourse: 'not a part of this course',
} as const;

/** How far a device's clock may run ahead of the server's (and behind, against when a part was fetched). */
export const DEVICE_CLOCK_SLACK_MS = 2 * 60 * 1000;
/** Seconds a record may add beyond the milliseconds its device's monotonic clock ran: rounding, no more. */
export const PLAYED_SLACK_SECONDS = 1;
/** A span's end this far past the part's length is the player's rounding of its duration, not a claim. */
const END_ROUNDING_SECONDS = 1;
/** Below this, seconds are float rounding. */
const EPSILON = 0.01;

/**
 * The signature of a record: HMAC-SHA256 over offlineRecordText with the download's record key (the
 * key's text, UTF-8, as the HMAC key), base64url without padding.
 */
export function offlineRecordSignature(recordKey: string, downloadId: string, record: Parameters<typeof offlineRecordText>[1]): string {
  return createHmac('sha256', recordKey).update(offlineRecordText(downloadId, record)).digest('base64url');
}

/** Whether the record's signature is the download's key's, compared in constant time. */
export function isSignedRecord(recordKey: string, downloadId: string, record: TOfflineWatchRecord): boolean {
  const expected = Buffer.from(offlineRecordSignature(recordKey, downloadId, record));
  const given = Buffer.from(record.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Where the download's sequence stands: the last record taken in, and the clock credited so far. */
export type TOfflineChain = {
  lastSeq: number;
  lastSignature: string | null;
  /** The device's clock (ms) at the end of the last record whose times were in order. */
  lastDeviceEndedAt: number | null;
  /** Seconds of offline playing added to the parts' clocks for this download, over every record. */
  creditedPlaySeconds: number;
};

/** One part of the downloaded course as the server records it for the learner, in the course's order. */
export type TOfflinePart = {
  videoId: string;
  /** A ready part's length; null when the part cannot be played (not ready, no length). */
  durationSeconds: number | null;
  /** When this download first fetched the part's media; null if it never did. */
  fetchedAt: Date | null;
  intervals: readonly TWatchedInterval[];
  watchedSeconds: number;
  observedSeconds: number;
  lastPosition: number;
  completed: boolean;
};

/** A record the server took in before (by its id), for answering one sent again. */
export type TKnownRecord = { downloadId: string; signature: string; outcome: 'credited' | 'refused'; reason: string | null; creditedSeconds: number };

export type TRecordResult = { id: string; outcome: 'credited' | 'duplicate' | 'refused'; reason: string | null; creditedSeconds: number };

/** A record to keep (offline_watch_records): it took its place in the download's sequence. */
export type TStoredRecord = { record: TOfflineWatchRecord; outcome: 'credited' | 'refused'; reason: string | null; creditedSeconds: number };

/** What the auditor's evidence keeps of a record not credited in full (watch_refusals). */
export type TRefusal = { videoId: string; reason: string; claimedFrom: number; claimedTo: number; creditedSeconds: number };

export type TPartAfter = TOfflinePart & {
  /** Whether a record changed the part's watch record (it is written back). */
  changed: boolean;
  /** The part became completed in this sync. */
  completedNow: boolean;
};

export type TOfflineJudgement = {
  results: TRecordResult[];
  stored: TStoredRecord[];
  refusals: TRefusal[];
  parts: TPartAfter[];
  chain: TOfflineChain;
};

export type TOfflineInput = {
  downloadId: string;
  recordKey: string;
  chain: TOfflineChain;
  parts: readonly TOfflinePart[];
  /** Records of the batch's ids the server has already taken in (any download). */
  known: ReadonlyMap<string, TKnownRecord>;
  records: readonly TOfflineWatchRecord[];
  /** The server's clock. */
  now: Date;
  completionShare: number;
};

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Judges a batch of records in order, each against the state the ones before it left.
 *
 * - A record taken in before (same id, same signature, this download) is a 'duplicate': it answers
 *   as it did then and changes nothing. The same id with anything else is refused as edited or
 *   replayed, and so is a signature that is not the download's key's, or a place in the sequence
 *   already taken. Such a record takes no place in the sequence, but for one at the next place of a
 *   part of the course whose signature does not verify (a record edited on the device): it takes
 *   that place, refused, so the device's later records, which name its signature, still come in.
 * - A genuine record must come next (seq = last + 1); one further on waits for those before it
 *   (refused, not kept: the device sends it again). It takes its place whatever is decided about
 *   its content: refused records advance the sequence too.
 * - Its previous signature must be the last one taken in (else edited); its device times must not
 *   be in the future, nor end before they start, nor start before the previous record's end; its
 *   part must be one of the course's, fetched before the record started, and unlocked (earlier parts
 *   completed on the server's record, this batch's credit included); its span within the part.
 * - Credit: the span's seconds not watched before, at most the record's played time + 1 s, and no
 *   more than the part's clock covers (watched ≤ observed + 2 s, as online). The part's clock grows
 *   by the played time, at most the real time since the part was fetched, and the download's total
 *   never exceeds the real time since its first fetch. What a span claimed beyond that is kept, with
 *   the reason, as the auditor's evidence.
 */
export function judgeOfflineRecords(input: TOfflineInput): TOfflineJudgement {
  const { downloadId, recordKey, now } = input;
  const nowMs = now.getTime();
  const chain: TOfflineChain = { ...input.chain };
  const parts: TPartAfter[] = input.parts.map((part) => ({ ...part, intervals: [...part.intervals], changed: false, completedNow: false }));
  const known = new Map(input.known);
  const earliestFetch = Math.min(...parts.map((part) => part.fetchedAt?.getTime() ?? Infinity));
  const results: TRecordResult[] = [];
  const stored: TStoredRecord[] = [];
  const refusals: TRefusal[] = [];

  const partOf = (videoId: string) => parts.findIndex((part) => part.videoId === videoId);
  const refuseForEvidence = (record: TOfflineWatchRecord, reason: string, creditedSeconds = 0) => {
    if (partOf(record.videoId) !== -1) refusals.push({ videoId: record.videoId, reason, claimedFrom: record.from, claimedTo: record.to, creditedSeconds });
  };
  /** A record that takes no place in the sequence. */
  const turnAway = (record: TOfflineWatchRecord, reason: string, evidence = true) => {
    results.push({ id: record.id, outcome: 'refused', reason, creditedSeconds: 0 });
    if (evidence) refuseForEvidence(record, reason);
  };
  /** A record that takes its place in the sequence, with what was decided. */
  const takeIn = (record: TOfflineWatchRecord, outcome: 'credited' | 'refused', reason: string | null, creditedSeconds: number, keep = true) => {
    chain.lastSeq = record.seq;
    chain.lastSignature = record.signature;
    results.push({ id: record.id, outcome, reason, creditedSeconds });
    const entry = { record, outcome, reason, creditedSeconds };
    if (keep) stored.push(entry);
    known.set(record.id, { downloadId, signature: record.signature, outcome, reason, creditedSeconds });
  };

  for (const record of input.records) {
    const seen = known.get(record.id);
    const signed = isSignedRecord(recordKey, downloadId, record);
    if (seen) {
      // The same signature over the same fields: the very record taken in before.
      if (seen.downloadId === downloadId && seen.signature === record.signature && signed) {
        results.push({ id: record.id, outcome: 'duplicate', reason: seen.reason, creditedSeconds: seen.creditedSeconds });
      } else {
        turnAway(record, OFFLINE_REFUSALS.edited);
      }
      continue;
    }
    if (!signed && record.seq === chain.lastSeq + 1 && partOf(record.videoId) !== -1) {
      // Edited on the device after it was signed: refused, but it takes its place, so the records
      // the device signed after it (which name its signature) still come in.
      takeIn(record, 'refused', OFFLINE_REFUSALS.edited, 0);
      refuseForEvidence(record, OFFLINE_REFUSALS.edited);
      continue;
    }
    if (!signed || record.seq <= chain.lastSeq) {
      turnAway(record, OFFLINE_REFUSALS.edited);
      continue;
    }
    if (record.seq > chain.lastSeq + 1) {
      // Earlier records are still on their way (or lost): nothing is kept, the device sends it again.
      turnAway(record, OFFLINE_REFUSALS.missingBefore, false);
      continue;
    }

    const index = partOf(record.videoId);
    const part = parts[index];
    if (!part || part.durationSeconds === null || part.durationSeconds <= 0) {
      // Not a part of the course (or no longer one): its place is taken, nothing can be kept of it.
      takeIn(record, 'refused', OFFLINE_REFUSALS.notInCourse, 0, part !== undefined);
      continue;
    }
    const refuse = (reason: string) => {
      takeIn(record, 'refused', reason, 0);
      refuseForEvidence(record, reason);
    };
    if (record.prev !== chain.lastSignature) {
      refuse(OFFLINE_REFUSALS.edited);
      continue;
    }
    if (record.endedAt > nowMs + DEVICE_CLOCK_SLACK_MS) {
      refuse(OFFLINE_REFUSALS.future);
      continue;
    }
    if (record.startedAt > record.endedAt || (chain.lastDeviceEndedAt !== null && record.startedAt < chain.lastDeviceEndedAt)) {
      refuse(OFFLINE_REFUSALS.outOfOrder);
      continue;
    }
    chain.lastDeviceEndedAt = record.endedAt;
    if (!part.fetchedAt || record.startedAt < part.fetchedAt.getTime() - DEVICE_CLOCK_SLACK_MS) {
      refuse(OFFLINE_REFUSALS.beforeDownload);
      continue;
    }
    if (parts.slice(0, index).some((earlier) => !earlier.completed)) {
      refuse(OFFLINE_REFUSALS.locked);
      continue;
    }
    const duration = part.durationSeconds;
    if (record.to < record.from || record.from >= duration) {
      refuse(OFFLINE_REFUSALS.outsidePart);
      continue;
    }

    // The clock: the time played, within the real time since the part and the download were fetched.
    // (Not also within the record's device times: a device moves a span's start up to the previous
    // record's end when its wall clock was set back, and a holder of the key could write any times.)
    const played = record.playedMs / 1000;
    const sincePartFetch = Math.max(0, (nowMs - part.fetchedAt.getTime()) / 1000);
    const downloadBudget = Math.max(0, (nowMs - earliestFetch) / 1000 - chain.creditedPlaySeconds);
    const clockAdded = Math.max(0, Math.min(played, sincePartFetch, downloadBudget));
    const observedSeconds = part.observedSeconds + clockAdded;
    chain.creditedPlaySeconds += clockAdded;

    const to = Math.min(record.to, duration);
    const before = watchedSeconds(part.intervals);
    const claimed = watchedSeconds(mergeInterval(part.intervals, [record.from, to])) - before;
    const allowed = Math.max(0, Math.min(played + PLAYED_SLACK_SECONDS, observedSeconds + CLOCK_SLACK_SECONDS - before));
    const span: TWatchedInterval = claimed > allowed ? clipToNewSeconds(part.intervals, [record.from, to], allowed) : [record.from, to];
    const intervals = mergeInterval(part.intervals, span);
    const watched = Math.min(watchedSeconds(intervals), duration);
    const credited = round(Math.max(0, watched - before));

    part.intervals = intervals;
    part.watchedSeconds = watched;
    part.observedSeconds = observedSeconds;
    part.lastPosition = span[1];
    part.changed = true;
    if (!part.completed && isCompleted({ watchedSeconds: watched, observedSeconds }, duration, input.completionShare)) {
      part.completed = true;
      part.completedNow = true;
    }

    const beyondRealTime = claimed - credited > EPSILON;
    const beyondEnd = record.to > duration + END_ROUNDING_SECONDS;
    const reason = beyondRealTime ? OFFLINE_REFUSALS.beyondRealTime : beyondEnd ? OFFLINE_REFUSALS.outsidePart : null;
    takeIn(record, 'credited', reason, credited);
    if (reason) refuseForEvidence(record, reason, credited);
  }

  return { results, stored, refusals, parts, chain };
}

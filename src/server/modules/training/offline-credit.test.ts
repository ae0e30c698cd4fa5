import { describe, expect, it } from 'vitest';
import type { TOfflineWatchRecord } from '../../../shared/schemas/offline.ts';
import { DEVICE_CLOCK_SLACK_MS, judgeOfflineRecords, OFFLINE_REFUSALS, offlineRecordSignature, type TOfflineInput, type TOfflinePart } from './offline-credit.ts';

const DOWNLOAD = '11111111-1111-4111-8111-111111111111';
const KEY = 'a-record-key-of-this-download';
const PART_A = '22222222-2222-4222-8222-222222222222';
const PART_B = '33333333-3333-4333-8333-333333333333';
const NOW = new Date('2026-11-27T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

const part = (videoId: string, overrides: Partial<TOfflinePart> = {}): TOfflinePart => ({
  videoId,
  durationSeconds: 100,
  fetchedAt: minutesAgo(60),
  intervals: [],
  watchedSeconds: 0,
  observedSeconds: 0,
  lastPosition: 0,
  completed: false,
  ...overrides,
});

/** A device's chain of records: each signed, numbered and naming the one before. */
function device(key = KEY, downloadId = DOWNLOAD) {
  let seq = 0;
  let prev: string | null = null;
  let n = 0;
  return {
    record(fields: { videoId?: string; from: number; to: number; startedAt?: number; endedAt?: number; playedMs?: number }): TOfflineWatchRecord {
      n += 1;
      const playedMs = fields.playedMs ?? Math.round((fields.to - fields.from) * 1000);
      const startedAt = fields.startedAt ?? minutesAgo(50).getTime() + n * 200_000;
      const unsigned = {
        id: `44444444-4444-4444-8444-${String(n).padStart(12, '0')}`,
        seq: (seq += 1),
        videoId: fields.videoId ?? PART_A,
        from: fields.from,
        to: fields.to,
        startedAt,
        endedAt: fields.endedAt ?? startedAt + playedMs,
        playedMs,
        prev,
      };
      const signature = offlineRecordSignature(key, downloadId, unsigned);
      prev = signature;
      return { ...unsigned, signature };
    },
  };
}

const judge = (records: TOfflineWatchRecord[], overrides: Partial<TOfflineInput> = {}) =>
  judgeOfflineRecords({
    downloadId: DOWNLOAD,
    recordKey: KEY,
    chain: { lastSeq: 0, lastSignature: null, lastDeviceEndedAt: null, creditedPlaySeconds: 0 },
    parts: [part(PART_A), part(PART_B)],
    known: new Map(),
    records,
    now: NOW,
    completionShare: 0.95,
    ...overrides,
  });

describe('offline credit', () => {
  it('credits honest records in full, completes the part and opens the next in the same batch', () => {
    const d = device();
    const records = [d.record({ from: 0, to: 50 }), d.record({ from: 50, to: 100 }), d.record({ videoId: PART_B, from: 0, to: 10 })];
    const out = judge(records);
    expect(out.results.map((result) => [result.outcome, result.creditedSeconds, result.reason])).toEqual([
      ['credited', 50, null],
      ['credited', 50, null],
      ['credited', 10, null],
    ]);
    expect(out.parts[0]).toMatchObject({ watchedSeconds: 100, observedSeconds: 100, completed: true, completedNow: true, lastPosition: 100 });
    expect(out.parts[1]).toMatchObject({ watchedSeconds: 10, completed: false, changed: true });
    expect(out.chain).toMatchObject({ lastSeq: 3, lastSignature: records[2]!.signature, creditedPlaySeconds: 110 });
    expect(out.stored).toHaveLength(3);
    expect(out.refusals).toEqual([]);
  });

  it('refuses a locked part, keeps the refusal, and the sequence goes on', () => {
    const d = device();
    const out = judge([d.record({ videoId: PART_B, from: 0, to: 10 }), d.record({ from: 0, to: 10 })]);
    expect(out.results.map((result) => [result.outcome, result.reason])).toEqual([
      ['refused', OFFLINE_REFUSALS.locked],
      ['credited', null],
    ]);
    expect(out.refusals).toEqual([{ videoId: PART_B, reason: OFFLINE_REFUSALS.locked, claimedFrom: 0, claimedTo: 10, creditedSeconds: 0 }]);
    expect(out.stored.map((entry) => entry.outcome)).toEqual(['refused', 'credited']);
  });

  it('answers a record sent again as before and changes nothing; the same id edited is refused', () => {
    const d = device();
    const first = d.record({ from: 0, to: 10 });
    const known = new Map([[first.id, { downloadId: DOWNLOAD, signature: first.signature, outcome: 'credited' as const, reason: null, creditedSeconds: 10 }]]);
    const chain = { lastSeq: 1, lastSignature: first.signature, lastDeviceEndedAt: first.endedAt, creditedPlaySeconds: 10 };
    const again = judge([first, first], { known, chain });
    expect(again.results).toEqual([
      { id: first.id, outcome: 'duplicate', reason: null, creditedSeconds: 10 },
      { id: first.id, outcome: 'duplicate', reason: null, creditedSeconds: 10 },
    ]);
    expect(again.stored).toEqual([]);
    expect(again.parts.every((p) => !p.changed)).toBe(true);
    expect(again.chain).toEqual(chain);

    const edited = judge([{ ...first, to: 60 }], { known, chain });
    expect(edited.results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
    expect(edited.chain).toEqual(chain);
    // Another download's record with the same id is no duplicate of it.
    const elsewhere = new Map([[first.id, { ...known.get(first.id)!, downloadId: PART_B }]]);
    expect(judge([first], { known: elsewhere }).results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
  });

  it('refuses a record edited after signing, or signed with another key; an edited one keeps its place so the next ones come in', () => {
    const d = device();
    const honest = d.record({ from: 0, to: 10 });
    const next = d.record({ from: 10, to: 20 });
    const out = judge([{ ...honest, to: 100, playedMs: 100_000 }, next]);
    expect(out.results.map((result) => [result.outcome, result.reason, result.creditedSeconds])).toEqual([
      ['refused', OFFLINE_REFUSALS.edited, 0],
      ['credited', null, 10],
    ]);
    expect(out.stored.map((entry) => [entry.record.seq, entry.outcome])).toEqual([[1, 'refused'], [2, 'credited']]);
    expect(out.chain.lastSeq).toBe(2);
    expect(out.refusals.map((refusal) => refusal.reason)).toEqual([OFFLINE_REFUSALS.edited]);
    // The original, sent after its edited copy took the place, is refused too.
    expect(judge([honest], { chain: out.chain }).results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
    // Alone, before any edit, the honest one comes in.
    expect(judge([honest]).results[0]).toMatchObject({ outcome: 'credited', creditedSeconds: 10 });

    const other = device('another download key').record({ from: 0, to: 10 });
    expect(judge([other]).results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
    const moved = device(KEY, PART_B).record({ from: 0, to: 10 });
    expect(judge([moved]).results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
  });

  it('takes records only in sequence: one with a place already taken is refused, one further on waits', () => {
    const d = device();
    const [one, two, three] = [d.record({ from: 0, to: 5 }), d.record({ from: 5, to: 10 }), d.record({ from: 10, to: 15 })];
    const skipped = judge([one!, three!]);
    expect(skipped.results.map((result) => result.reason)).toEqual([null, OFFLINE_REFUSALS.missingBefore]);
    expect(skipped.chain.lastSeq).toBe(1);
    expect(skipped.refusals).toEqual([]);
    // A record re-signed for a place already taken (the key's holder replaying).
    const chain = { lastSeq: 2, lastSignature: two!.signature, lastDeviceEndedAt: two!.endedAt, creditedPlaySeconds: 10 };
    expect(judge([one!], { chain }).results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
    // A record naming another previous record than the last taken in.
    const forked = device();
    forked.record({ from: 0, to: 1 });
    const wrongPrev = forked.record({ from: 1, to: 2 });
    const out = judge([one!, wrongPrev]);
    expect(out.results[1]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.edited });
    expect(out.chain.lastSeq).toBe(2);
  });

  it('refuses device times in the future (beyond the slack), ending before they start, or before the previous record', () => {
    const atEdge = device().record({ from: 0, to: 10, startedAt: NOW.getTime() + DEVICE_CLOCK_SLACK_MS - 10_000, endedAt: NOW.getTime() + DEVICE_CLOCK_SLACK_MS });
    expect(judge([atEdge]).results[0]!.outcome).toBe('credited');
    const future = device().record({ from: 0, to: 10, startedAt: NOW.getTime() + DEVICE_CLOCK_SLACK_MS - 9_999, endedAt: NOW.getTime() + DEVICE_CLOCK_SLACK_MS + 1 });
    const refused = judge([future]);
    expect(refused.results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.future });
    expect(refused.refusals[0]).toMatchObject({ reason: OFFLINE_REFUSALS.future, claimedFrom: 0, claimedTo: 10 });
    // The future time does not become the device's last time: the honest record after it is taken.
    const d = device();
    const after = judge([
      d.record({ from: 0, to: 10, startedAt: NOW.getTime() + 3_600_000, endedAt: NOW.getTime() + 3_610_000 }),
      d.record({ from: 0, to: 10, startedAt: minutesAgo(5).getTime() }),
    ]);
    expect(after.results.map((result) => result.outcome)).toEqual(['refused', 'credited']);

    const backwards = device().record({ from: 0, to: 10, startedAt: minutesAgo(5).getTime(), endedAt: minutesAgo(6).getTime() });
    expect(judge([backwards]).results[0]!.reason).toBe(OFFLINE_REFUSALS.outOfOrder);
    const e = device();
    const overlapping = [e.record({ from: 0, to: 10, startedAt: minutesAgo(10).getTime() }), e.record({ from: 10, to: 20, startedAt: minutesAgo(10).getTime() + 9_999 })];
    expect(judge(overlapping).results.map((result) => result.reason)).toEqual([null, OFFLINE_REFUSALS.outOfOrder]);
    const touching = device();
    const inOrder = [touching.record({ from: 0, to: 10, startedAt: minutesAgo(10).getTime() }), touching.record({ from: 10, to: 20, startedAt: minutesAgo(10).getTime() + 10_000 })];
    expect(judge(inOrder).results.map((result) => result.reason)).toEqual([null, null]);
  });

  it('refuses a record from before its part was fetched (beyond the slack), or of a part never fetched', () => {
    const fetchedAt = minutesAgo(30);
    const parts = [part(PART_A, { fetchedAt }), part(PART_B)];
    const early = device().record({ from: 0, to: 10, startedAt: fetchedAt.getTime() - DEVICE_CLOCK_SLACK_MS - 1 });
    expect(judge([early], { parts }).results[0]!.reason).toBe(OFFLINE_REFUSALS.beforeDownload);
    const justIn = device().record({ from: 0, to: 10, startedAt: fetchedAt.getTime() - DEVICE_CLOCK_SLACK_MS });
    expect(judge([justIn], { parts }).results[0]!.outcome).toBe('credited');
    const never = device().record({ from: 0, to: 10 });
    expect(judge([never], { parts: [part(PART_A, { fetchedAt: null })] }).results[0]!.reason).toBe(OFFLINE_REFUSALS.beforeDownload);
  });

  it('never credits more than the real time since the download, per part and for the whole download', () => {
    // Fetched 60 s ago; the device claims 100 s played.
    const parts = [part(PART_A, { fetchedAt: new Date(NOW.getTime() - 60_000) })];
    const d = device();
    const out = judge([d.record({ from: 0, to: 100, startedAt: NOW.getTime() - 59_000, endedAt: NOW.getTime() }), d.record({ from: 0, to: 0, startedAt: NOW.getTime(), endedAt: NOW.getTime() })], { parts });
    expect(out.parts[0]!.observedSeconds).toBe(60);
    expect(out.parts[0]!.watchedSeconds).toBe(62);
    expect(out.parts[0]!.completed).toBe(false);
    expect(out.results[0]).toMatchObject({ outcome: 'credited', creditedSeconds: 62, reason: OFFLINE_REFUSALS.beyondRealTime });
    expect(out.refusals).toEqual([{ videoId: PART_A, reason: OFFLINE_REFUSALS.beyondRealTime, claimedFrom: 0, claimedTo: 100, creditedSeconds: 62 }]);
    expect(out.chain.creditedPlaySeconds).toBe(60);

    // Two parts fetched together 100 s ago: together they get 100 s of clock, not 200.
    const both = [part(PART_A, { fetchedAt: minutesAgo(100 / 60), completed: true, watchedSeconds: 100, observedSeconds: 100, intervals: [[0, 100]] }), part(PART_B, { fetchedAt: minutesAgo(100 / 60) })];
    const e = device();
    const start = NOW.getTime() - 99_000;
    const shared = judge([e.record({ from: 0, to: 80, startedAt: start }), e.record({ videoId: PART_B, from: 0, to: 80, startedAt: start + 80_000, endedAt: NOW.getTime() })], {
      parts: both,
      chain: { lastSeq: 0, lastSignature: null, lastDeviceEndedAt: null, creditedPlaySeconds: 0 },
    });
    expect(shared.chain.creditedPlaySeconds).toBe(100);
    expect(shared.parts[1]!.observedSeconds).toBe(20);
    // What the download already had counts against it.
    const spent = judge([device().record({ from: 0, to: 30 })], { chain: { lastSeq: 0, lastSignature: null, lastDeviceEndedAt: null, creditedPlaySeconds: 3590 } });
    expect(spent.parts[0]).toMatchObject({ observedSeconds: 10, watchedSeconds: 12 });
  });

  it('credits at most the played time + 1 s of new seconds, and each second once', () => {
    const d = device();
    const out = judge([d.record({ from: 0, to: 60, playedMs: 20_000 }), d.record({ from: 10, to: 40, playedMs: 30_000 })]);
    expect(out.results.map((result) => result.creditedSeconds)).toEqual([21, 19]);
    expect(out.parts[0]!.intervals).toEqual([[0, 40]]);
    expect(out.parts[0]!.observedSeconds).toBe(50);
  });

  it('never credits the gaps between spans', () => {
    const d = device();
    const out = judge([d.record({ from: 0, to: 10 }), d.record({ from: 20, to: 30 }), d.record({ from: 5, to: 15 })]);
    expect(out.parts[0]!.intervals).toEqual([
      [0, 15],
      [20, 30],
    ]);
    expect(out.parts[0]!.watchedSeconds).toBe(25);
    expect(out.results.map((result) => result.creditedSeconds)).toEqual([10, 10, 5]);
  });

  it('clips a span at the part\'s end (the auditor sees a claim well past it) and refuses one outside the part', () => {
    const d = device();
    const out = judge([d.record({ from: 90, to: 100.5, playedMs: 10_500 }), d.record({ from: 95, to: 130, playedMs: 35_000 }), d.record({ from: 100, to: 110 }), d.record({ from: 20, to: 10, playedMs: 1000 })]);
    expect(out.results.map((result) => [result.outcome, result.reason, result.creditedSeconds])).toEqual([
      ['credited', null, 10],
      ['credited', OFFLINE_REFUSALS.outsidePart, 0],
      ['refused', OFFLINE_REFUSALS.outsidePart, 0],
      ['refused', OFFLINE_REFUSALS.outsidePart, 0],
    ]);
    expect(out.parts[0]!.intervals).toEqual([[90, 100]]);
  });

  it('refuses a record of a part that is not one of the course\'s and keeps nothing of it', () => {
    const record = device().record({ videoId: '55555555-5555-4555-8555-555555555555', from: 0, to: 10 });
    const out = judge([record]);
    expect(out.results[0]).toMatchObject({ outcome: 'refused', reason: OFFLINE_REFUSALS.notInCourse });
    expect(out.stored).toEqual([]);
    expect(out.refusals).toEqual([]);
    expect(out.chain.lastSeq).toBe(1);
  });
});

import { VIDEO_COMPLETION_SHARE } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { THeartbeat, THeartbeatResult } from '../../../shared/schemas/training.ts';
import type { AppDeps } from '../../deps.ts';
import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import {
  createWatchRecords,
  findReportContext,
  inPipelinedTransaction,
  insertWatchRefusalsStatement,
  lockWatchRecords,
  saveWatchRecordsStatement,
  type TReportPart,
  type TWatchRecordUpdate,
  type TWatchRefusal,
} from './heartbeat.repository.ts';
import { progressOf, REFUSAL_REASONS } from './training.service.ts';
import { creditReport, isCompleted, lockedParts } from './watched.ts';

const T = MESSAGES.training;
type Deps = Pick<AppDeps, 'db'>;

/** At most this many reports in one transaction. */
export const REPORTS_PER_TRANSACTION = 500;
/** Transactions of reports under way at once in one process; reports arriving meanwhile wait and go together. */
const TRANSACTIONS_IN_FLIGHT = 2;
/** A batch that lost a deadlock (with a writer elsewhere that locks in another order) is tried again. */
const ATTEMPTS = 3;

type TPending = { viewer: TSessionUser; beat: THeartbeat; resolve: (result: THeartbeatResult) => void; reject: (error: unknown) => void };

/** How many transactions the reports took: what the group commit saves, for tests and benches. */
export type TReportStats = { transactions: number; reports: number };

/**
 * Records a report from a player (the portal's own, or another through the REST path): a start
 * (from = to) opens the server's clock for the part; a span is credited as far as the time the
 * server has seen the viewer playing covers it (watched.ts), each second once, and the part is
 * completed at VIDEO_COMPLETION_SHARE of its duration, watched and timed. What a report claimed
 * beyond the clock is not credited and is kept, with the reason, for the auditor. A locked or
 * unready part is refused and nothing is recorded.
 *
 * Reports are written in groups (decision 056): those arriving while a transaction is under way
 * go together in the next one, checked, credited and written with a handful of statements whatever
 * their number. Each report is answered only once its transaction has committed, so an answered
 * report survives the process being killed; one refused (not enrolled, locked, not ready) is
 * answered with its own error and does not hold back the others.
 */
export function recordHeartbeat(deps: Deps, viewer: TSessionUser, beat: THeartbeat): Promise<THeartbeatResult> {
  return queueOf(deps.db).add(viewer, { ...beat, videoId: beat.videoId.toLowerCase() });
}

const queues = new WeakMap<Database, ReportQueue>();

function queueOf(db: Database): ReportQueue {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new ReportQueue(db)));
  return queue;
}

/** The transactions the reports recorded through `db` have taken so far in this process. */
export function reportStats(db: Database): TReportStats {
  return { ...queueOf(db).stats };
}

class ReportQueue {
  readonly stats: TReportStats = { transactions: 0, reports: 0 };
  private waiting: TPending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: Database) {}

  add(viewer: TSessionUser, beat: THeartbeat): Promise<THeartbeatResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ viewer, beat, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= TRANSACTIONS_IN_FLIGHT || this.waiting.length === 0) return;
    this.scheduled = true;
    // Reports that arrived in the same turn of the event loop go in the same transaction.
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < TRANSACTIONS_IN_FLIGHT && this.waiting.length > 0) {
        const batch = this.waiting.splice(0, REPORTS_PER_TRANSACTION);
        this.inFlight += 1;
        void this.run(batch).finally(() => {
          this.inFlight -= 1;
          this.schedule();
        });
      }
    });
  }

  private async run(batch: TPending[]): Promise<void> {
    let outcomes: Array<THeartbeatResult | AppError>;
    for (let attempt = 1; ; attempt += 1) {
      try {
        outcomes = await inPipelinedTransaction(this.db, (tx) => applyReports(tx, batch));
        break;
      } catch (error) {
        if (attempt < ATTEMPTS && isDeadlock(error)) continue;
        for (const pending of batch) pending.reject(error);
        return;
      }
    }
    // Committed: now, and only now, each report is answered.
    this.stats.transactions += 1;
    this.stats.reports += batch.length;
    batch.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if (outcome instanceof AppError) pending.reject(outcome);
      else pending.resolve(outcome);
    });
  }
}

function isDeadlock(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '40P01' || code === '40001';
}

const keyOf = (userId: string, videoId: string) => `${userId}/${videoId}`;
/** The columns keep seconds as `real`: a record credited twice in one batch is read back as the second report would have read it. */
const asStored = Math.fround;

/**
 * Checks and credits a batch of reports in arrival order, inside one transaction: the records are
 * locked in one stable order, each report is credited by the rules (creditReport) at the server's
 * time once the locks are held, one after the other for reports of one record. Answers, per
 * report, its result or the error it is refused with, and the two statements (records, refusals)
 * that write them, sent with the COMMIT.
 */
async function applyReports(tx: Executor, batch: TPending[]): Promise<{ result: Array<THeartbeatResult | AppError>; writes: Array<SQL | undefined> }> {
  const userIds = [...new Set(batch.map(({ viewer }) => viewer.id))];
  const videoIds = [...new Set(batch.map(({ beat }) => beat.videoId))];
  // Every record the batch names, in one stable order (by learner, then part; PostgreSQL orders
  // uuids as their lowercase text orders): locked while the batch's context is read, in the same
  // round trip. A record of a report refused below is locked for nothing, and written nothing.
  const keys = [...new Map(batch.map(({ viewer, beat }) => [keyOf(viewer.id, beat.videoId), { userId: viewer.id, videoId: beat.videoId }])).values()];
  keys.sort((a, b) => (a.userId === b.userId ? (a.videoId < b.videoId ? -1 : 1) : a.userId < b.userId ? -1 : 1));
  const [context, existing] = await Promise.all([findReportContext(tx, userIds, videoIds), lockWatchRecords(tx, keys)]);
  const partById = new Map(context.parts.map((part) => [part.id, part]));
  const partsOfSet = new Map<string, TReportPart[]>();
  for (const part of context.parts) partsOfSet.set(part.setId, [...(partsOfSet.get(part.setId) ?? []), part]);
  const enrolment = new Map(context.enrolled.map((row) => [keyOf(row.userId, row.courseId), row.status]));
  const completed = new Set(context.records.filter((row) => row.completed).map((row) => keyOf(row.userId, row.videoId)));

  // The checks, in the order a single report met them: the part, the enrolment, ready, unlocked.
  const checked = batch.map(({ viewer, beat }): TReportPart | AppError => {
    const part = partById.get(beat.videoId);
    if (!part) return new AppError('NOT_FOUND', T.videoNotFound);
    if (viewer.role !== 'admin' && enrolment.get(keyOf(viewer.id, part.courseId)) !== 'approved') return new AppError('FORBIDDEN', T.notEnrolled);
    if (part.status !== 'ready' || !part.durationSeconds) return new AppError('CONFLICT', T.notReady);
    if (viewer.role !== 'admin') {
      // As the batch starts: a part completed by a report of this batch opens the next for the batch after.
      const parts = partsOfSet.get(part.setId)!;
      const locks = lockedParts(parts.map((candidate) => completed.has(keyOf(viewer.id, candidate.id))));
      if (locks[parts.indexOf(part)]) return new AppError('FORBIDDEN', T.locked);
    }
    return part;
  });
  if (checked.every((outcome) => outcome instanceof AppError)) return { result: checked as AppError[], writes: [] };

  // The records the accepted reports lack are created (locked, as this transaction's own); one
  // another transaction created meanwhile is locked once that one ends.
  const records = new Map(existing.map((row) => [keyOf(row.userId, row.videoId), row]));
  const accepted = new Set(batch.filter((_, index) => !(checked[index] instanceof AppError)).map(({ viewer, beat }) => keyOf(viewer.id, beat.videoId)));
  const missing = keys.filter((key) => accepted.has(keyOf(key.userId, key.videoId)) && !records.has(keyOf(key.userId, key.videoId)));
  for (const row of await createWatchRecords(tx, missing)) records.set(keyOf(row.userId, row.videoId), row);
  const raced = missing.filter((key) => !records.has(keyOf(key.userId, key.videoId)));
  for (const row of await lockWatchRecords(tx, raced)) records.set(keyOf(row.userId, row.videoId), row);

  // The server's clock, read once the records are locked: reports of one viewer are timed in turn.
  const now = new Date();
  const completedInSet = new Map<string, number>();
  for (const row of context.records) {
    const part = partById.get(row.videoId);
    if (part && row.completed) completedInSet.set(keyOf(row.userId, part.setId), (completedInSet.get(keyOf(row.userId, part.setId)) ?? 0) + 1);
  }
  const updates = new Map<string, TWatchRecordUpdate>();
  const refusals: TWatchRefusal[] = [];
  const outcomes = batch.map(({ viewer, beat }, index): THeartbeatResult | AppError => {
    const part = checked[index]!;
    if (part instanceof AppError) return part;
    const key = keyOf(viewer.id, part.id);
    const record = records.get(key)!;
    const duration = part.durationSeconds!;
    const credit = creditReport({ intervals: record.watchedIntervals, observedSeconds: record.observedSeconds, lastReportAt: record.lastBeatAt }, beat, duration, now);
    const completedAt = record.completedAt ?? (isCompleted(credit, duration, VIDEO_COMPLETION_SHARE) ? now : null);
    const setKey = keyOf(viewer.id, part.setId);
    if (!record.completedAt && completedAt) completedInSet.set(setKey, (completedInSet.get(setKey) ?? 0) + 1);
    const update: TWatchRecordUpdate = {
      id: record.id,
      watchedIntervals: credit.intervals,
      watchedSeconds: credit.watchedSeconds,
      observedSeconds: credit.observedSeconds,
      lastPosition: Math.min(beat.position, duration),
      lastBeatAt: now,
      firstBeatAt: record.firstBeatAt ?? now,
      completedAt,
    };
    updates.set(key, update);
    // The next report of this record in the batch reads what this one wrote.
    records.set(key, {
      ...record,
      ...update,
      watchedSeconds: asStored(update.watchedSeconds),
      observedSeconds: asStored(update.observedSeconds),
      lastPosition: asStored(update.lastPosition),
    });
    if (credit.refusedSeconds > 0.01) {
      refusals.push({
        userId: viewer.id,
        videoId: part.id,
        reason: REFUSAL_REASONS.aheadOfClock,
        claimedFrom: beat.from,
        claimedTo: beat.to,
        creditedSeconds: Math.max(0, Math.min(beat.to, duration) - Math.min(beat.from, duration) - credit.refusedSeconds),
        createdAt: now,
      });
    }
    const done = completedInSet.get(setKey) ?? 0;
    const total = partsOfSet.get(part.setId)!.length;
    return {
      videoId: part.id,
      watchedSeconds: Math.round(credit.watchedSeconds * 10) / 10,
      completed: completedAt !== null,
      progress: progressOf(done, total),
      allCompleted: total > 0 && done === total,
    };
  });
  // Written with the COMMIT, in the same round trip.
  return { result: outcomes, writes: [saveWatchRecordsStatement([...updates.values()]), insertWatchRefusalsStatement(refusals)] };
}

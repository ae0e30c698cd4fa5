import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { findEntriesAfter, findHeadHash, insertEntry, lockChainHead, type TAuditRow } from './audit.repository.ts';

/*
 * The audit trail (decision 067). Every staff action, and a learner's requests about their own
 * data, is written by `recordAudit` inside the transaction of the change it records: the entry
 * exists if and only if the change committed. Entries are append-only (a database trigger refuses
 * UPDATE and DELETE) and chained: each entry's hash covers the previous entry's hash and its own
 * content, so `checkAuditChain` finds an entry edited, removed or inserted past the trigger.
 */

/** The hash before the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Who acted: a member of staff, a learner about their own data, or the system (null). */
export type TAuditActor = { id: string; name: string; role: string; address: string | null } | null;

/** What an entry says: the action, what it was done to, the learner it concerns, the values before and after. */
export type TAuditEvent = {
  /** A dotted name: 'identity.verify', 'certificate.revoke', 'staff.role', 'auth.sign-in'… */
  action: string;
  subjectType: string;
  subjectId?: string | null;
  learnerId?: string | null;
  before?: unknown;
  after?: unknown;
};

/** The audit actor for a member of staff acting through a staff procedure or route. */
export function actorOfStaff(actor: TStaffActor): TAuditActor {
  return { id: actor.id, name: actor.name, role: actor.staffRole, address: actor.address };
}

/** The audit actor for a signed-in user acting on their own account (a learner's data requests). */
export function actorOfUser(user: Pick<TSessionUser, 'id' | 'name' | 'role' | 'staffRole'>, address: string | null): TAuditActor {
  return { id: user.id, name: user.name, role: user.staffRole ?? user.role, address };
}

/** JSON with object keys in code-point order at every level, so a value hashes alike however stored (jsonb reorders keys). */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** A value as JSON will store it (dates become their ISO text, undefined goes), or null. */
function asStored(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

type THashed = Pick<TAuditRow, 'at' | 'actorId' | 'actorName' | 'actorRole' | 'address' | 'action' | 'subjectType' | 'subjectId' | 'learnerId' | 'before' | 'after' | 'prevHash'>;

function entryHash(entry: THashed): string {
  const content = canonicalJson({
    at: entry.at.toISOString(),
    actorId: entry.actorId,
    actorName: entry.actorName,
    actorRole: entry.actorRole,
    address: entry.address,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    learnerId: entry.learnerId,
    before: entry.before,
    after: entry.after,
  });
  return createHash('sha256').update(entry.prevHash).update('\n').update(content).digest('hex');
}

/**
 * Appends an entry to the trail. Call it with the transaction that makes the change: the entry
 * commits or rolls back with it. Takes the chain's head for the rest of that transaction, so call
 * it last, once the change's own statements (and their refusals) are done.
 */
export async function recordAudit(tx: Executor, actor: TAuditActor, event: TAuditEvent, at: Date = new Date()): Promise<TAuditRow> {
  await lockChainHead(tx);
  const prevHash = (await findHeadHash(tx)) ?? GENESIS_HASH;
  const entry: THashed = {
    // Milliseconds, as the column keeps them, so the hash reads back alike.
    at: new Date(Math.floor(at.getTime())),
    actorId: actor?.id ?? null,
    actorName: actor?.name ?? null,
    actorRole: actor?.role ?? null,
    address: actor?.address ?? null,
    action: event.action,
    subjectType: event.subjectType,
    subjectId: event.subjectId ?? null,
    learnerId: event.learnerId ?? null,
    before: asStored(event.before),
    after: asStored(event.after),
    prevHash,
  };
  return insertEntry(tx, { ...entry, hash: entryHash(entry) });
}

export type TAuditChainCheck = {
  /** How many entries were read. */
  entries: number;
  /** The first entry whose hash or link does not hold, or null when the chain is whole. */
  brokenAt: { seq: number; reason: 'content' | 'link' } | null;
  checkedAt: string;
};

/**
 * Walks the whole trail in its order and recomputes each hash: an entry whose content was edited
 * fails its own hash ('content'); a removed or inserted entry breaks the next one's link ('link').
 */
export async function checkAuditChain(db: Executor, batchSize = 5_000): Promise<TAuditChainCheck> {
  let prevHash = GENESIS_HASH;
  let afterSeq = 0;
  let entries = 0;
  for (;;) {
    const rows = await findEntriesAfter(db, afterSeq, batchSize);
    for (const row of rows) {
      entries += 1;
      if (row.prevHash !== prevHash) return { entries, brokenAt: { seq: row.seq, reason: 'link' }, checkedAt: new Date().toISOString() };
      if (entryHash(row) !== row.hash) return { entries, brokenAt: { seq: row.seq, reason: 'content' }, checkedAt: new Date().toISOString() };
      prevHash = row.hash;
      afterSeq = row.seq;
    }
    if (rows.length < batchSize) return { entries, brokenAt: null, checkedAt: new Date().toISOString() };
  }
}

/**
 * A download changes nothing: its entry (the filters used and how many rows went out) is a
 * transaction of its own, committed before the first byte is sent.
 */
export async function recordDownload(
  db: Executor,
  actor: TAuditActor,
  download: { action: string; filters: Record<string, unknown>; rows?: number | null },
): Promise<TAuditRow> {
  return db.transaction((tx) =>
    recordAudit(tx, actor, {
      action: download.action,
      subjectType: 'export',
      before: null,
      after: { filters: download.filters, rows: download.rows ?? null },
    }),
  );
}

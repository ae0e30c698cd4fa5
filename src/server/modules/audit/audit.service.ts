import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { addDays } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAuditEntry, TAuditFilters, TAuditPage, TAuditPerson, TAuditSearch } from '../../../shared/schemas/audit.ts';
import { AppError } from '../../lib/errors.ts';
import {
  findActors,
  findEntries,
  findEntriesAfter,
  findEntriesConcerning,
  findEntriesOfSubject,
  findHeadHash,
  insertEntry,
  lockChainHead,
  type TAuditRow,
  type TEntryFilter,
} from './audit.repository.ts';

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

/** The entries about a user (as the learner concerned or as the actor), oldest first: a learner's copy of their own data. */
export async function auditEntriesConcerning(db: Executor, userId: string): Promise<TAuditRow[]> {
  return findEntriesConcerning(db, userId);
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

// ---------------------------------------------------------------------------------------------
// Reading the trail (permission audit.read). Nothing here changes or removes an entry.

export const AUDIT_PAGE_SIZE = 50;
const CSV_BATCH = 1_000;

function toEntry(row: TAuditRow): TAuditEntry {
  return {
    seq: row.seq,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorName: row.actorName,
    actorRole: row.actorRole,
    address: row.address,
    action: row.action,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    learnerId: row.learnerId,
    before: row.before as TAuditEntry['before'],
    after: row.after as TAuditEntry['after'],
  };
}

/** The filters as the repository reads them: the days are UTC days, `to` inclusive. */
function entryFilter(filters: TAuditFilters): TEntryFilter {
  return {
    actorId: filters.actorId,
    action: filters.action,
    learnerId: filters.learnerId,
    since: filters.from ? new Date(`${filters.from}T00:00:00.000Z`) : undefined,
    until: filters.to ? new Date(`${addDays(filters.to, 1)}T00:00:00.000Z`) : undefined,
  };
}

const cursorOf = (row: TAuditRow) => `${row.at.getTime()}.${row.seq}`;

function readCursor(cursor: string): { at: Date; seq: number } {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor);
  if (!match) throw new AppError('BAD_REQUEST', MESSAGES.audit.badCursor, { fields: { cursor: MESSAGES.audit.badCursor } });
  return { at: new Date(Number(match[1])), seq: Number(match[2]) };
}

/** A page of the trail, newest first, searched by person, action, learner and days. */
export async function searchAudit(deps: { db: Executor }, query: TAuditSearch): Promise<TAuditPage> {
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const filter = { ...entryFilter(query), before: query.cursor ? readCursor(query.cursor) : undefined };
  const rows = await findEntries(deps.db, filter, limit + 1);
  const page = rows.slice(0, limit);
  return { items: page.map(toEntry), nextCursor: rows.length > limit ? cursorOf(page[page.length - 1]!) : null };
}

/** Every entry the search finds, newest first, a batch at a time (the CSV download). */
export async function* allAuditEntries(deps: { db: Executor }, filters: TAuditFilters): AsyncGenerator<TAuditEntry[]> {
  const base = entryFilter(filters);
  let before: { at: Date; seq: number } | undefined;
  for (;;) {
    const rows = await findEntries(deps.db, { ...base, before }, CSV_BATCH);
    if (rows.length > 0) yield rows.map(toEntry);
    if (rows.length < CSV_BATCH) return;
    const last = rows[rows.length - 1]!;
    before = { at: last.at, seq: last.seq };
  }
}

/** Who appears in the trail as its actor: the person filter's choices. */
export function auditPeople(deps: { db: Executor }): Promise<TAuditPerson[]> {
  return findActors(deps.db, 500);
}

/** The entries about one certificate, oldest first (its evidence page). */
export async function auditOfCertificate(deps: { db: Executor }, certificateId: string): Promise<TAuditEntry[]> {
  return (await findEntriesOfSubject(deps.db, 'certificate', certificateId, 200)).map(toEntry);
}

/** The chain check the owner or an auditor runs from the screen. */
export function checkAuditTrail(deps: { db: Executor }): Promise<TAuditChainCheck> {
  return checkAuditChain(deps.db);
}

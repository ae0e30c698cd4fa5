import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { auditEntries } from '../../db/schema.ts';
import { checkAuditChain, GENESIS_HASH, recordAudit, type TAuditActor } from './audit.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const registrar: TAuditActor = { id: randomUUID(), name: 'Meera Rao', role: 'registrar', address: '203.0.113.7' };

/** Rolls back whatever the callback did, after it has looked. */
class RolledBack extends Error {}

const it = test
  .extend('entriesOf', { scope: 'file' }, ({ db }) => (subjectId: string) => db.select().from(auditEntries).where(eq(auditEntries.subjectId, subjectId)))
  .extend('thenRollBack', { scope: 'file' }, ({ db }) => async (run: (tx: Parameters<Parameters<typeof db['transaction']>[0]>[0]) => Promise<void>) => {
    await db
      .transaction(async (tx) => {
        await run(tx);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  });

describe('an audit entry', () => {
  it('is written with its change, says who, from where, what, before and after, and links to the entry before it', async ({ db, entriesOf }) => {
    const subjectId = randomUUID();
    const at = new Date('2026-11-29T08:15:30.123Z');
    const entry = await db.transaction((tx) =>
      recordAudit(tx, registrar, { action: 'identity.verify', subjectType: 'profile', subjectId, learnerId: subjectId, before: { state: 'awaiting' }, after: { state: 'verified', at } }, at),
    );
    expect(entry).toMatchObject({
      at,
      actorId: registrar!.id,
      actorName: 'Meera Rao',
      actorRole: 'registrar',
      address: '203.0.113.7',
      action: 'identity.verify',
      before: { state: 'awaiting' },
      after: { state: 'verified', at: at.toISOString() },
    });
    expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.prevHash).not.toBe(entry.hash);
    expect(await entriesOf(subjectId)).toHaveLength(1);
  });

  it('is not there when its change rolls back', async ({ db, entriesOf, thenRollBack }) => {
    const subjectId = randomUUID();
    await thenRollBack(async (tx) => {
      await recordAudit(tx, registrar, { action: 'certificate.revoke', subjectType: 'certificate', subjectId });
      expect(await tx.select().from(auditEntries).where(eq(auditEntries.subjectId, subjectId))).toHaveLength(1);
    });
    expect(await entriesOf(subjectId)).toEqual([]);
    expect((await checkAuditChain(db)).brokenAt).toBeNull();
  });

  it('cannot be changed or removed by any statement', async ({ db, entriesOf }) => {
    const subjectId = randomUUID();
    await db.transaction((tx) => recordAudit(tx, registrar, { action: 'staff.role', subjectType: 'user', subjectId, before: { role: 'auditor' }, after: { role: 'owner' } }));
    await expect(db.update(auditEntries).set({ after: { role: 'auditor' } }).where(eq(auditEntries.subjectId, subjectId))).rejects.toMatchObject({ cause: { message: 'audit entries are append-only' } });
    await expect(db.delete(auditEntries).where(eq(auditEntries.subjectId, subjectId))).rejects.toMatchObject({ cause: { message: 'audit entries are append-only' } });
    expect((await entriesOf(subjectId))[0]!.after).toEqual({ role: 'owner' });
  });

  it('keeps one chain when many transactions write at once', async ({ db, entriesOf }) => {
    const subjectId = randomUUID();
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => db.transaction((tx) => recordAudit(tx, registrar, { action: 'enrolment.accept', subjectType: 'enrolment', subjectId, after: { n } }))),
    );
    const rows = (await entriesOf(subjectId)).sort((a, b) => a.seq - b.seq);
    expect(rows).toHaveLength(12);
    for (const [index, row] of rows.entries()) if (index > 0) expect(row.prevHash).toBe(rows[index - 1]!.hash);
    expect((await checkAuditChain(db)).brokenAt).toBeNull();
  });
});

describe('the chain check', () => {
  it('finds an entry edited in the database past the trigger, and one removed', async ({ db, entriesOf, thenRollBack }) => {
    const subjectId = randomUUID();
    await db.transaction(async (tx) => {
      await recordAudit(tx, registrar, { action: 'certificate.reissue', subjectType: 'certificate', subjectId, after: { name: 'Arjun Nair' } });
    });
    await db.transaction((tx) => recordAudit(tx, registrar, { action: 'export.download', subjectType: 'export', subjectId }));
    const [edited, next] = (await entriesOf(subjectId)).sort((a, b) => a.seq - b.seq);
    expect((await checkAuditChain(db)).brokenAt).toBeNull();

    // What someone with the database's keys might do; rolled back so the trail stays whole.
    await thenRollBack(async (tx) => {
      await tx.execute(sql`alter table audit_entries disable trigger audit_entries_append_only`);
      await tx.update(auditEntries).set({ after: { name: 'Someone Else' } }).where(eq(auditEntries.seq, edited!.seq));
      expect((await checkAuditChain(tx, 7)).brokenAt).toEqual({ seq: edited!.seq, reason: 'content' });
    });
    await thenRollBack(async (tx) => {
      await tx.execute(sql`alter table audit_entries disable trigger audit_entries_append_only`);
      await tx.delete(auditEntries).where(eq(auditEntries.seq, edited!.seq));
      expect((await checkAuditChain(tx)).brokenAt).toEqual({ seq: next!.seq, reason: 'link' });
    });
    const whole = await checkAuditChain(db);
    expect(whole.brokenAt).toBeNull();
    expect(whole.entries).toBeGreaterThanOrEqual(2);
  });

  it('starts from the genesis hash', async ({ db }) => {
    const [first] = await db.select().from(auditEntries).orderBy(auditEntries.seq).limit(1);
    expect(first!.prevHash).toBe(GENESIS_HASH);
  });
});

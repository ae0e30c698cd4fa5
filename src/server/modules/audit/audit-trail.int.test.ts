import { eq } from 'drizzle-orm';
import { TRPCError } from '@trpc/server';
import { auditEntries, courses } from '../../db/schema.ts';
import type { TWorld } from '../../../testing/portal-world.ts';
import { setCourseActive } from '../courses/course-admin.service.ts';
import { recordAudit } from './audit.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

async function rejection(work: Promise<unknown>): Promise<TRPCError> {
  const error = await work.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

const it = test
  /** A caller acting as one of the world's users, from an address of the staff's office. */
  .extend('asWho', { scope: 'file' }, ({ as, world }) => (who: keyof TWorld['users'], ip = '198.51.100.4') => as(world.users[who], ip))
  .extend('entriesAbout', { scope: 'file' }, ({ db }) => (subjectId: string) => db.select().from(auditEntries).where(eq(auditEntries.subjectId, subjectId)));

// The world is seeded before the first test, within a hook's time.
it.beforeAll(({ world }) => {
  expect(world.users.owner).toBeDefined();
});

describe('staff actions in the audit trail', () => {
  it('an enrolment accepted is recorded with who, from where, the learner, before and after; a repeat refused records nothing', async ({ asWho, entriesAbout, world }) => {
    const { id } = await world.make.pendingEnrolment();
    await asWho('registrar').enrolments.accept({ enrolmentId: id });
    const [entry, ...rest] = await entriesAbout(id);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      action: 'enrolment.accept',
      actorId: world.users.registrar.id,
      actorRole: 'registrar',
      address: '198.51.100.4',
      subjectType: 'enrolment',
      before: { status: 'pending' },
      after: { status: 'approved' },
    });
    expect(entry!.learnerId).toMatch(/^[0-9a-f-]{36}$/);

    expect((await rejection(asWho('registrar').enrolments.accept({ enrolmentId: id }))).code).toBe('CONFLICT');
    expect(await entriesAbout(id)).toHaveLength(1);
  });

  it('an approval over the spec’s REST route is recorded too', async ({ entriesAbout, portal, world }) => {
    const learner = await world.make.unapprovedUser();
    const response = await portal.app.inject({
      method: 'POST',
      url: `/api/user/approve-user/${learner.id}`,
      headers: { authorization: portal.authorization(world.users.owner) },
    });
    expect(response.statusCode).toBe(200);
    expect(await entriesAbout(learner.id)).toEqual([
      expect.objectContaining({ action: 'account.approve', actorId: world.users.owner.id, actorRole: 'owner', learnerId: learner.id }),
    ]);
  });

  it('a change refused by its rule writes no entry', async ({ asWho, entriesAbout, world }) => {
    const course = await world.make.course();
    const refused = await rejection(
      asWho('instructor').courses.updateCertificateSettings({
        courseId: course.id,
        code: 'AFF',
        approvalNumber: null,
        validityMonths: 60,
        refresherCourseId: course.id,
        testRequiresApprovedProfile: false,
      }),
    );
    expect(refused.code).toBe('BAD_REQUEST');
    expect(await entriesAbout(course.id)).toEqual([]);
  });

  it('a change whose entry cannot be written rolls back with it', async ({ asWho, db, entriesAbout, portal, world }) => {
    const course = await world.make.course();
    const broken = { id: 'not-an-id', name: 'Nobody', staffRole: 'instructor' as const, address: '198.51.100.9' };
    await expect(setCourseActive(portal.runtime, broken, course.id, false)).rejects.toThrow();
    const [row] = await db.select({ isActive: courses.isActive }).from(courses).where(eq(courses.id, course.id));
    expect(row!.isActive).toBe(true);
    expect(await entriesAbout(course.id)).toEqual([]);

    await asWho('instructor').courses.deactivate({ courseId: course.id });
    expect(await entriesAbout(course.id)).toEqual([
      expect.objectContaining({ action: 'course.deactivate', before: { isActive: true }, after: { isActive: false } }),
    ]);
  });
});

describe('searching the audit trail', () => {
  it('finds by person, action, learner and days, newest first, a page at a time', async ({ asWho, world }) => {
    const first = await world.make.pendingEnrolment();
    const second = await world.make.pendingEnrolment();
    await asWho('owner').enrolments.accept({ enrolmentId: first.id });
    await asWho('owner').enrolments.reject({ enrolmentId: second.id });
    const auditor = asWho('auditor');

    const mine = await auditor.audit.search({ actorId: world.users.owner.id });
    expect(mine.items.length).toBeGreaterThanOrEqual(2);
    expect(mine.items.every((entry) => entry.actorId === world.users.owner.id)).toBe(true);
    expect(mine.items[0]).toMatchObject({ action: 'enrolment.reject', subjectId: second.id });

    const rejected = await auditor.audit.search({ action: 'enrolment.reject' });
    expect(rejected.items.map((entry) => entry.subjectId)).toContain(second.id);
    expect(rejected.items.every((entry) => entry.action === 'enrolment.reject')).toBe(true);

    const learnerId = mine.items[0]!.learnerId!;
    const aboutLearner = await auditor.audit.search({ learnerId });
    expect(aboutLearner.items.length).toBeGreaterThan(0);
    expect(aboutLearner.items.every((entry) => entry.learnerId === learnerId)).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    expect((await auditor.audit.search({ from: today, to: today, actorId: world.users.owner.id })).items.length).toBe(mine.items.length);
    expect((await auditor.audit.search({ from: '2020-01-01', to: '2020-01-31' })).items).toEqual([]);

    // Pages by the cursor: each entry once, in order.
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await auditor.audit.search({ actorId: world.users.owner.id, limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((entry) => entry.seq));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(mine.items.map((entry) => entry.seq));

    expect((await rejection(auditor.audit.search({ cursor: 'nonsense' }))).code).toBe('BAD_REQUEST');
    expect((await rejection(auditor.audit.search({ from: '2026-02-01', to: '2026-01-01' }))).code).toBe('BAD_REQUEST');
    expect((await rejection(asWho('instructor').audit.search({}))).code).toBe('FORBIDDEN');
    expect((await auditor.audit.people()).map((person) => person.id)).toEqual(expect.arrayContaining([world.users.owner.id, world.users.registrar.id]));
  });

  it('downloads a search as CSV with formula-guarded cells, and the download is an entry of its own', async ({ asWho, db, portal, world }) => {
    await db.transaction((tx) =>
      recordAudit(tx, { id: world.users.owner.id, name: '=HYPERLINK("http://x")', role: 'owner', address: '192.0.2.1' }, { action: 'test.formula', subjectType: 'test' }),
    );
    const response = await portal.app.inject({
      method: 'GET',
      url: '/api/audit/entries.csv?action=test.formula',
      headers: { authorization: portal.authorization(world.users.auditor) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const lines = response.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
    const [download] = (await asWho('auditor').audit.search({ action: 'export.audit', actorId: world.users.auditor.id })).items;
    expect(download).toMatchObject({ actorRole: 'auditor', after: { filters: { action: 'test.formula' } } });
  });

  it('a certificate’s evidence shows its entries, and the chain checks whole', async ({ asWho, world }) => {
    await asWho('registrar').certificates.revoke({ certificateId: world.certificate.id, reason: 'Name mismatch with passport' });
    const evidence = await asWho('auditor').evidence.certificate({ certificateId: world.certificate.id });
    expect(evidence.audit).toEqual([
      expect.objectContaining({ action: 'certificate.revoke', actorId: world.users.registrar.id, after: expect.objectContaining({ reason: 'Name mismatch with passport' }) }),
    ]);
    const check = await asWho('owner').audit.checkChain();
    expect(check.brokenAt).toBeNull();
    expect(check.entries).toBeGreaterThan(5);
  });
});

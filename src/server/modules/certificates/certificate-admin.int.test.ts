import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { addDays, utcDay } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { CERTIFICATE_STATES, type TAdminCertificateQuery, type TCertificateState } from '../../../shared/schemas/certificate.ts';
import { createCertificateRow, createTestRow } from '../../../testing/certificate-rows.ts';
import { createCourse, createProfileRow, createUser } from '../../../testing/factories.ts';
import type { Database } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { certificateReminders } from '../../db/schema.ts';
import { adminCertificates } from './certificate-admin.service.ts';
import { describe, expect, inject, test } from '../../../testing/portal-test.ts';

type TCourse = Awaited<ReturnType<typeof createCourse>>;

/** A CSV answer's lines, byte-order mark and the last line break taken off. */
const csvLines = (body: string) => body.replace(/^\uFEFF/, '').replace(/\r\n$/, '').split('\r\n');

/** One CSV line's cells (RFC 4180 quoting). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

const today = utcDay();
const idsOf = (page: { items: Array<{ id: string }> }) => page.items.map((item) => item.id).sort();

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin', approvedAt: new Date() }))
  .extend('learner', { scope: 'file' }, ({ db }) => createUser(db, { approvedAt: new Date() }))
  .extend('list', { scope: 'file' }, ({ admin, as }) => (query: Partial<TAdminCertificateQuery>) => as(admin).certificates.adminList(query))
  /** A course with a test; `certificateIn` gives a new learner of it a certificate with the given details. */
  .extend('courseWithTest', { scope: 'file' }, ({ db }) => async (overrides: Parameters<typeof createCourse>[1] = {}) => {
    const course = await createCourse(db, overrides);
    return { course, test: await createTestRow(db, course.id) };
  })
  .extend('certificateIn', { scope: 'file' }, ({ db }) => async (
    where: { course: TCourse; test: { id: string } },
    options: { user?: Parameters<typeof createUser>[1]; certificate?: Parameters<typeof createCertificateRow>[2] } = {},
  ) => {
    const holder = await createUser(db, { approvedAt: new Date(), ...options.user });
    // Printed with the course's terms, as a pass issues it.
    const printed = { courseCode: where.course.code, approvalNumber: where.course.approvalNumber, ...options.certificate };
    const certificate = await createCertificateRow(db, { userId: holder.id, courseId: where.course.id, testId: where.test.id }, printed);
    return { holder, certificate };
  });

describe("the administrators' certificate list", () => {
  it("finds a certificate by the learner's name, e-mail, INDOS (printed or the profile's) or number, whatever the case", async ({ certificateIn, courseWithTest, db, list }) => {
    const where = await courseWithTest();
    const token = randomUUID().slice(0, 8);
    const byAccount = await certificateIn(where, { user: { firstName: `Zephyrine${token}`, email: `crew-${token}@fleet.example` } });
    const byPrinted = await certificateIn(where, { certificate: { holderName: `Ishaan Qudsia${token}`, holderIndosNo: `07X${token.toUpperCase()}` } });
    const byProfile = await certificateIn(where);
    await createProfileRow(db, byProfile.holder.id, { indosNo: `08Y${token.toUpperCase()}`, name: `Rohan Varghese${token}` });
    const other = await certificateIn(where);

    const found = async (search: string) => idsOf(await list({ search }));
    expect(await found(`zephyrine${token}`.toUpperCase())).toEqual([byAccount.certificate.id]);
    expect(await found(`CREW-${token}@FLEET`)).toEqual([byAccount.certificate.id]);
    expect(await found(`qudsia${token}`)).toEqual([byPrinted.certificate.id]);
    // INDOS numbers are typed from their start, in either case; the profile's counts when the certificate printed none.
    expect(await found(`07x${token}`)).toEqual([byPrinted.certificate.id]);
    expect(await found(`08y${token}`)).toEqual([byProfile.certificate.id]);
    expect(await found(`varghese${token}`)).toEqual([byProfile.certificate.id]);
    expect(await found(other.certificate.number.toLowerCase())).toEqual([other.certificate.id]);
    // The serial alone finds it too.
    expect(await found(other.certificate.number.slice(-6))).toContain(other.certificate.id);
    expect(await found(`nobody-${token}`)).toEqual([]);
    // LIKE's wildcards are taken literally.
    expect(await found(`%${token}`)).toEqual([]);

    const [row] = (await list({ search: `zephyrine${token}` })).items;
    expect(row).toMatchObject({
      id: byAccount.certificate.id,
      number: byAccount.certificate.number,
      version: 1,
      state: 'valid',
      holder: { userId: byAccount.holder.id, name: 'Arjun Nair', email: byAccount.holder.email, indosNo: null },
      course: { id: where.course.id, title: where.course.title, code: null },
      validUntil: null,
      revokedAt: null,
      supersededBy: null,
      lastReminder: null,
    });
  });

  it('filters by course, newest issue first, a page at a time', async ({ certificateIn, courseWithTest, list }) => {
    const first = await courseWithTest({ code: 'PST' });
    const second = await courseWithTest();
    const base = Date.now() - 60 * 60_000;
    const issued = [];
    for (let minute = 0; minute < 5; minute += 1) {
      issued.push((await certificateIn(first, { certificate: { issuedAt: new Date(base + minute * 60_000) } })).certificate);
    }
    await certificateIn(second);

    const newestFirst = issued.map((certificate) => certificate.id).reverse();
    const page1 = await list({ courseId: first.course.id, pageSize: 2 });
    expect(page1).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(page1.items.map((item) => item.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.items.every((item) => item.course.code === 'PST')).toBe(true);
    const page3 = await list({ courseId: first.course.id, pageSize: 2, page: 3 });
    expect(page3.items.map((item) => item.id)).toEqual(newestFirst.slice(4));
    // Past the end: no rows, the count still right.
    expect(await list({ courseId: first.course.id, pageSize: 2, page: 4 })).toMatchObject({ items: [], total: 5 });
  });

  it('filters by each state as the state rule decides it, at the boundaries of the expiring window', async ({ certificateIn, courseWithTest, list, portal }) => {
    const where = await courseWithTest();
    const window = Math.max(...portal.runtime.env.CERTIFICATE_REMINDER_DAYS);
    const make = async (certificate: Parameters<typeof createCertificateRow>[2]) => (await certificateIn(where, { certificate })).certificate.id;
    const renewal = (await certificateIn(where, { certificate: { validUntil: addDays(today, 3000) } })).certificate;
    const expected: Record<TCertificateState, string[]> = {
      valid: [renewal.id, await make({ validUntil: null }), await make({ validUntil: addDays(today, window + 1) })],
      expiring: [await make({ validUntil: addDays(today, window) }), await make({ validUntil: today }), await make({ validUntil: addDays(today, 10) })],
      expired: [await make({ validUntil: addDays(today, -1) }), await make({ validUntil: addDays(today, -400) })],
      // Revoked comes first: a revoked certificate that was also superseded is revoked.
      revoked: [
        await make({ validUntil: addDays(today, 10), revokedAt: new Date(), revokeReason: 'Issued in error' }),
        await make({ validUntil: addDays(today, 10), revokedAt: new Date(), supersededAt: new Date(), supersededById: renewal.id }),
      ],
      superseded: [await make({ validUntil: addDays(today, -5), supersededAt: new Date(), supersededById: renewal.id })],
    };
    for (const state of CERTIFICATE_STATES) {
      const page = await list({ courseId: where.course.id, state });
      expect(idsOf(page), state).toEqual([...expected[state]].sort());
      expect(page.items.every((item) => item.state === state)).toBe(true);
    }
    const [superseded] = (await list({ courseId: where.course.id, state: 'superseded' })).items;
    expect(superseded!.supersededBy).toEqual({ number: renewal.number, courseTitle: where.course.title });
  });

  it('lists the certificates expiring within N days: live, last valid day from today to today + N', async ({ certificateIn, courseWithTest, list }) => {
    const where = await courseWithTest();
    const make = async (certificate: Parameters<typeof createCertificateRow>[2]) => (await certificateIn(where, { certificate })).certificate.id;
    const inside = [await make({ validUntil: today }), await make({ validUntil: addDays(today, 30) }), await make({ validUntil: addDays(today, 12) })];
    await make({ validUntil: addDays(today, 31) });
    await make({ validUntil: addDays(today, -1) });
    await make({ validUntil: null });
    await make({ validUntil: addDays(today, 5), revokedAt: new Date() });
    await make({ validUntil: addDays(today, 5), supersededAt: new Date() });

    expect(idsOf(await list({ courseId: where.course.id, expiringWithinDays: 30 }))).toEqual([...inside].sort());
    // With a state as well, both hold.
    expect(idsOf(await list({ courseId: where.course.id, expiringWithinDays: 30, state: 'expired' }))).toEqual([]);
    expect(idsOf(await list({ courseId: where.course.id, expiringWithinDays: 1, state: 'expiring' }))).toEqual([inside[0]]);
  });

  it("shows each certificate's latest reminder", async ({ certificateIn, courseWithTest, db, list }) => {
    const where = await courseWithTest();
    const { certificate } = await certificateIn(where, { certificate: { validUntil: addDays(today, 20) } });
    const earlier = new Date(Date.now() - 60 * 24 * 60 * 60_000);
    await db.insert(certificateReminders).values([
      { certificateId: certificate.id, daysBefore: 90, validUntil: addDays(today, 20), createdAt: earlier },
      { certificateId: certificate.id, daysBefore: 30, validUntil: addDays(today, 20) },
    ]);
    const [row] = (await list({ courseId: where.course.id })).items;
    expect(row!.lastReminder).toMatchObject({ daysBefore: 30 });
    expect(Date.parse(row!.lastReminder!.at)).toBeGreaterThan(earlier.getTime());
  });

  it.runIf(inject('databaseUrl'))('reads a page in three queries, however many rows it holds or the search joins', async ({ certificateIn, courseWithTest, portal }) => {
    const where = await courseWithTest();
    for (let index = 0; index < 30; index += 1) await certificateIn(where, { certificate: { validUntil: addDays(today, index) } });
    let queries = 0;
    const client = postgres(inject('databaseUrl')!, { max: 1, onnotice: () => {} });
    try {
      const counted = drizzle(client, { schema, logger: { logQuery: () => (queries += 1) } }) as unknown as Database;
      const deps = { db: counted, env: portal.runtime.env };
      for (const query of [{}, { search: 'nair' }, { state: 'expiring' as const, courseId: where.course.id }]) {
        queries = 0;
        const page = await adminCertificates(deps, { page: 1, pageSize: 100, ...query });
        expect(page.items.length).toBeGreaterThan(0);
        expect(queries).toBe(3);
      }
    } finally {
      await client.end();
    }
  });

  it('writes the CSV of every match, formula-guarded, with a dated name', async ({ admin, bearer, certificateIn, courseWithTest, portal }) => {
    const where = await courseWithTest({ code: 'FPFF' });
    const named = await certificateIn(where, {
      certificate: { holderName: '=HYPERLINK("http://evil.example","Click")', holderIndosNo: '0012345', validUntil: addDays(today, 45), issuedAt: new Date(Date.now() - 60_000) },
    });
    const revoked = await certificateIn(where, { certificate: { revokedAt: new Date(), revokeReason: 'Wrong, course' } });
    const url = `/api/certificates/list.csv?courseId=${where.course.id}`;
    const res = await portal.app.inject({ url, headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="certificates-${today}.csv"`);
    expect(res.headers['x-total-count']).toBe('2');
    const [header, ...rows] = csvLines(res.body).map(csvCells);
    expect(header).toEqual([
      'Certificate number',
      'Version',
      'State',
      'Holder',
      'Email',
      'INDoS Number',
      'Course',
      'Course code',
      'Issued at',
      'Valid until',
      'Revoked at',
      'Revoke reason',
      'Superseded by',
      'Last reminder (days before expiry)',
      'Last reminder at',
    ]);
    expect(rows).toHaveLength(2);
    // Newest issue first.
    expect(rows[0]!.slice(0, 3)).toEqual([revoked.certificate.number, '1', 'Revoked']);
    expect(rows[0]![11]).toBe('Wrong, course');
    expect(rows[1]!.slice(0, 8)).toEqual([
      named.certificate.number,
      '1',
      'Expiring',
      `'=HYPERLINK("http://evil.example","Click")`,
      named.holder.email,
      '0012345',
      where.course.title,
      'FPFF',
    ]);
    expect(rows[1]![9]).toBe(addDays(today, 45));

    // The same filters as the list: the expiring one alone; an empty value is no filter.
    const expiring = await portal.app.inject({ url: `${url}&state=expiring&search=&expiringWithinDays=60`, headers: bearer(admin) });
    expect(csvLines(expiring.body).slice(1).map((line) => csvCells(line)[0])).toEqual([named.certificate.number]);
  });

  it('writes the CSV in batches: every one of more matches than a batch holds, each once', async ({ admin, bearer, certificateIn, courseWithTest, portal }) => {
    const where = await courseWithTest();
    const made = new Set<string>();
    for (let index = 0; index < 520; index += 20) {
      const certificates = await Promise.all(Array.from({ length: 20 }, () => certificateIn(where)));
      for (const { certificate } of certificates) made.add(certificate.number);
    }
    const res = await portal.app.inject({ url: `/api/certificates/list.csv?courseId=${where.course.id}`, headers: bearer(admin) });
    const numbers = csvLines(res.body)
      .slice(1)
      .map((line) => csvCells(line)[0]!);
    expect(numbers).toHaveLength(520);
    expect(new Set(numbers)).toEqual(made);
  }, 120_000);

  it('refuses bad filters with 400 and writes no file', async ({ admin, bearer, list, portal }) => {
    for (const query of ['expiringWithinDays=0', 'expiringWithinDays=abc', 'expiringWithinDays=3651', 'state=lost', 'courseId=42', `search=${'a'.repeat(101)}`, 'search=a&search=b', 'colour=red']) {
      const res = await portal.app.inject({ url: `/api/certificates/list.csv?${query}`, headers: bearer(admin) });
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-disposition'], query).toBeUndefined();
      expect(res.json().message, query).toBeTruthy();
    }
    const res = await portal.app.inject({ url: '/api/certificates/list.csv?expiringWithinDays=0', headers: bearer(admin) });
    expect(res.json().message).toBe(MESSAGES.certificateAdmin.expiringWithin);
    await expect(list({ expiringWithinDays: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers a learner 403 and a visitor 401, from the procedures and every download', async ({ as, bearer, certificateIn, courseWithTest, learner, portal }) => {
    const where = await courseWithTest();
    await certificateIn(where);
    await expect(as(learner).certificates.adminList({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(as(learner).certificates.regulatorBatch({ courseId: where.course.id, from: today, to: today })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(portal.caller(null).certificates.adminList({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const batch = `courseId=${where.course.id}&from=${today}&to=${today}`;
    for (const url of ['/api/certificates/list.csv', `/api/certificates/regulator-batch.csv?${batch}`, `/api/certificates/regulator-batch.xlsx?${batch}`]) {
      const asLearner = await portal.app.inject({ url, headers: bearer(learner) });
      expect(asLearner.statusCode, url).toBe(403);
      expect(asLearner.headers['content-disposition'], url).toBeUndefined();
      expect((await portal.app.inject({ url })).statusCode, url).toBe(401);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql as dsql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import * as schema from '../src/server/db/schema.ts';
import { recordAudit, searchAudit, type TAuditActor } from '../src/server/modules/audit/audit.service.ts';
import { BENCH_DATABASE_URL, ms, percentile, ROOT, withFreshPostgres, type TBenchRow } from './support.ts';

/*
 * `npm run bench:audit`: the audit trail's cost and its search at size, on PostgreSQL.
 * - Write cost: 1,000 course activations (one UPDATE, as setCourseActive makes it) each in its own
 *   transaction, without and with its audit entry; and recordAudit alone, 1,000 times. The
 *   statements are counted by a drizzle logger.
 * - Search: 1,000,000 entries (20 people, 26 actions, 50,000 learners, two years), filled by one
 *   insert … select generate_series, then a real recordAudit on top; each of the screen's searches
 *   (person, action, learner, seven days) 200 times, first page and a page deep, p95.
 */

const ENTRIES = Number(process.env.AUDIT_BENCH_ENTRIES ?? 1_000_000);
const PEOPLE = 20;
const LEARNERS = 50_000;
const ACTIONS = [
  'account.approve', 'enrolment.accept', 'enrolment.reject', 'course.create', 'course.update', 'course.activate', 'course.deactivate',
  'course.certificate-settings', 'training.upload', 'training.delete', 'training.reorder', 'training.retry', 'test.create', 'test.publish',
  'test.unpublish', 'test.policy', 'test.grant-attempts', 'certificate.revoke', 'certificate.reissue', 'reminders.run', 'export.regulator-batch',
  'export.certificate-list', 'export.evidence', 'export.results', 'export.audit', 'settings.change',
];
const SEARCHES = 200;

async function writeCost(db: Database, client: postgres.Sql, counter: { statements: number }): Promise<TBenchRow[]> {
  await client`insert into courses (title, description, duration, price, category, subjects) values ('Bench course', 'x', '1 day', 1, 'STCW', '[]'::jsonb)`;
  const [course] = await client<Array<{ id: string }>>`select id from courses limit 1`;
  const actor: TAuditActor = { id: randomUUID(), name: 'Bench Owner', role: 'owner', address: '198.51.100.1' };
  const RUNS = 1_000;
  const change = (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) =>
    tx.execute(dsql`update courses set is_active = not is_active, updated_at = now() where id = ${course!.id} returning id`);
  // Warm both paths first.
  for (let i = 0; i < 50; i += 1) {
    await db.transaction(async (tx) => {
      await change(tx);
      await recordAudit(tx, actor, { action: 'course.activate', subjectType: 'course', subjectId: course!.id, before: { isActive: false }, after: { isActive: true } });
    });
  }
  const time = async (withEntry: boolean) => {
    counter.statements = 0;
    const started = performance.now();
    for (let i = 0; i < RUNS; i += 1) {
      await db.transaction(async (tx) => {
        await change(tx);
        if (withEntry) await recordAudit(tx, actor, { action: 'course.activate', subjectType: 'course', subjectId: course!.id, before: { isActive: false }, after: { isActive: true } });
      });
    }
    return { us: ((performance.now() - started) * 1000) / RUNS, statements: counter.statements / RUNS };
  };
  const without = await time(false);
  const withEntry = await time(true);
  const alone = await (async () => {
    counter.statements = 0;
    const started = performance.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < RUNS; i += 1) await recordAudit(tx, actor, { action: 'course.update', subjectType: 'course', subjectId: course!.id, before: { title: 'A' }, after: { title: 'B' } });
    });
    return { us: ((performance.now() - started) * 1000) / RUNS, statements: (counter.statements - 2) / RUNS };
  })();
  return [
    { figure: 'Audit write: a course activation without its entry', value: `${without.us.toFixed(0)} µs`, note: `${without.statements.toFixed(0)} statements besides BEGIN and COMMIT (the UPDATE), mean of ${RUNS}` },
    { figure: 'Audit write: the same with its entry', value: `${withEntry.us.toFixed(0)} µs`, note: `${withEntry.statements.toFixed(0)} statements; the entry adds ${(withEntry.statements - without.statements).toFixed(0)} statements and ${(withEntry.us - without.us).toFixed(0)} µs` },
    { figure: 'Audit write: recordAudit alone', value: `${alone.us.toFixed(0)} µs`, note: `${alone.statements.toFixed(0)} statements (chain lock, head hash, insert), ${RUNS} in one transaction` },
  ];
}

async function fill(client: postgres.Sql) {
  // Spread over two years in seq order; 60 % of entries concern a learner; hashes are placeholders of the right form.
  await client.unsafe(`
    insert into audit_entries (at, actor_id, actor_name, actor_role, address, action, subject_type, subject_id, learner_id, before, after, prev_hash, hash)
    select now() - interval '730 days' + (n * interval '730 days' / ${ENTRIES}),
      ('00000000-0000-4000-8000-' || lpad(((n * 7) % ${PEOPLE})::text, 12, '0'))::uuid,
      'Staff ' || ((n * 7) % ${PEOPLE}), (array['owner','registrar','instructor','auditor'])[1 + (n * 7) % 4], '198.51.100.' || (n % 250),
      (array[${ACTIONS.map((a) => `'${a}'`).join(',')}])[1 + n % ${ACTIONS.length}],
      'enrolment', md5(n::text),
      case when n % 5 < 3 then ('00000000-0000-4000-9000-' || lpad(((n * 31) % ${LEARNERS})::text, 12, '0'))::uuid end,
      jsonb_build_object('status', 'pending'), jsonb_build_object('status', 'approved'),
      md5((n - 1)::text) || md5((n - 1)::text), md5(n::text) || md5(n::text)
    from generate_series(1, ${ENTRIES}) n`);
  await client`analyze audit_entries`;
}

async function searches(db: Database): Promise<TBenchRow[]> {
  const person = (i: number) => `00000000-0000-4000-8000-${String((i * 3) % PEOPLE).padStart(12, '0')}`;
  const learner = (i: number) => `00000000-0000-4000-9000-${String((i * 7919) % LEARNERS).padStart(12, '0')}`;
  const day = (i: number) => new Date(Date.now() - ((i * 37) % 720) * 86_400_000).toISOString().slice(0, 10);
  const plus = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const kinds: Array<[string, (i: number) => Parameters<typeof searchAudit>[1]]> = [
    ['by person', (i) => ({ actorId: person(i) })],
    ['by action', (i) => ({ action: ACTIONS[i % ACTIONS.length] })],
    ['by learner', (i) => ({ learnerId: learner(i) })],
    ['by seven days', (i) => ({ from: day(i), to: plus(day(i), 6) })],
    ['by person and seven days', (i) => ({ actorId: person(i), from: day(i), to: plus(day(i), 6) })],
  ];
  const rows: TBenchRow[] = [];
  for (const [label, query] of kinds) {
    const first: number[] = [];
    const deep: number[] = [];
    let found = 0;
    for (let i = 0; i < SEARCHES; i += 1) {
      let started = performance.now();
      const page = await searchAudit({ db }, query(i));
      first.push(performance.now() - started);
      found += page.items.length;
      // Four pages on, as Older clicked four times.
      let cursor = page.nextCursor;
      for (let hop = 0; hop < 3 && cursor; hop += 1) cursor = (await searchAudit({ db }, { ...query(i), cursor })).nextCursor;
      if (cursor) {
        started = performance.now();
        await searchAudit({ db }, { ...query(i), cursor });
        deep.push(performance.now() - started);
      }
    }
    rows.push({
      figure: `Audit search ${label}: p95`,
      value: ms(percentile(first, 95)),
      note: `first page of 50, ${SEARCHES} searches (median ${ms(percentile(first, 50))}, ${(found / SEARCHES).toFixed(0)} entries a page); the fifth page p95 ${deep.length ? ms(percentile(deep, 95)) : 'n/a'}`,
    });
  }
  return rows;
}

async function main() {
  if (!BENCH_DATABASE_URL) throw new Error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server.');
  const rows = await withFreshPostgres(BENCH_DATABASE_URL, async (url) => {
    const handle = await openDatabase({ url });
    await handle.migrate();
    await handle.close();
    const client = postgres(url, { max: 4, onnotice: () => {} });
    const counter = { statements: 0 };
    const db = drizzle(client, { schema, logger: { logQuery: () => void (counter.statements += 1) } }) as unknown as Database;
    try {
      const cost = await writeCost(db, client, counter);
      await client`truncate audit_entries restart identity`.catch(async () => {
        // The trail refuses DELETE; a fresh table for the fill is the bench's own business.
      });
      const filling = performance.now();
      await fill(client);
      const fillMs = performance.now() - filling;
      const topped = performance.now();
      await db.transaction((tx) => recordAudit(tx, { id: randomUUID(), name: 'Bench Auditor', role: 'auditor', address: '198.51.100.2' }, { action: 'export.audit', subjectType: 'export' }));
      const topMs = performance.now() - topped;
      const [count] = await client<Array<{ n: string }>>`select count(*)::text as n from audit_entries`;
      return [
        ...cost,
        { figure: 'Audit trail size', value: Number(count!.n).toLocaleString('en'), note: `filled in ${ms(fillMs)}; a real recordAudit on top took ${ms(topMs)}` },
        ...(await searches(db)),
      ];
    } finally {
      await client.end({ timeout: 5 });
    }
  });
  const text = ['# Audit trail benchmark', '', `${new Date().toISOString()}`, '', '| Figure | Value | Note |', '| --- | --- | --- |', ...rows.map((row) => `| ${row.figure} | ${row.value} | ${row.note ?? ''} |`), ''].join('\n');
  writeFileSync(path.join(ROOT, 'bench/audit-report.md'), text);
  process.stdout.write(text);
}

await main();

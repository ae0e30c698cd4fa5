import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, utcDay } from '../src/shared/calendar.ts';
import { buildApp } from '../src/server/app.ts';
import { parseEnv } from '../src/server/env.ts';
import { createLogger } from '../src/server/lib/logger.ts';
import { signAccessToken } from '../src/server/lib/tokens.ts';
import { createRuntime, type Runtime } from '../src/server/runtime.ts';
import { createUser } from '../src/testing/factories.ts';
import { BENCH_DATABASE_URL, ms, percentile, type TBenchmark, type TBenchRow, withFreshPostgres } from './support.ts';

/** A regulator's batch: 1,000 completions of one course over five days. */
const BATCH = 1_000;
/** Revoked in the same days, which the batch leaves out. */
const REVOKED_IN_BATCH = 20;
/** The rest of the academy's year around it: the same course on other days, and 19 other courses. */
const SAME_COURSE_OTHER_DAYS = 2_000;
const OTHER_COURSES = 19;
const OTHER_CERTIFICATES = 18_000;
const ROUNDS = 15;
/** The whole list's CSV is twenty times the batch: fewer rounds of it. */
const LIST_ROUNDS = 5;

const FIRST = ['Arjun', 'Priya', 'Ravi', 'Sneha', 'Vikram', 'Anita', 'Rahul', 'Kavya', 'Suresh', 'Meera', 'Joseph', 'Fatima', 'Deepak', 'Lakshmi', 'Zoë', 'राहुल'];
const LAST = ['Nair', 'Sharma', 'Iyer', 'Das', 'Fernandes', 'Khan', 'Patel', 'Menon', 'Singh', 'Rao', 'Pillai', 'Gupta'];

/**
 * The certificates, in a few statements: learners with one passing attempt and certificate each,
 * the holder's snapshot as issuance writes it (about one in thirty lacks its CDC number, one in
 * fifty its INDoS number, as real batches do).
 */
export async function seed(runtime: Runtime, batchFrom: string): Promise<string> {
  const list = (values: string[]) => sql.raw(`array[${values.map((v) => `'${v}'`).join(',')}]`);
  const total = BATCH + REVOKED_IN_BATCH + SAME_COURSE_OTHER_DAYS + OTHER_CERTIFICATES;
  await runtime.db.execute(sql`
    insert into courses (title, description, duration, price, category, subjects, code, approval_number, certificate_validity_months)
    select 'Course ' || c, 'A course.', '5 days', 4500, 'STCW', '[]'::jsonb,
           case when c = 0 then 'FPFF' else 'C' || c end, 'DGS/TC/2026/' || lpad(c::text, 3, '0'), 60
    from generate_series(0, ${OTHER_COURSES}) as c`);
  await runtime.db.execute(sql`
    insert into tests (course_id, title, pass_mark) select id, title, 50 from courses`);
  await runtime.db.execute(sql`
    insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
    select 'Mr', (${list(FIRST)})[1 + i % ${FIRST.length}], (${list(LAST)})[1 + (i / 7) % ${LAST.length}],
           '98' || lpad(i::text, 8, '0'), 'seafarer' || i || '@example.com', 'x', 'learner', now(), now()
    from generate_series(1, ${total}) as i`);
  // Learner n: the batch (1..1,020, the last 20 revoked), the same course on other days, then the other courses.
  // One transaction, so the working table lives on one connection and goes with it.
  await runtime.db.transaction(async (tx) => {
  await tx.execute(sql`
    create temporary table seeded on commit drop as
    select u.id as user_id, n,
           case when n <= ${BATCH + REVOKED_IN_BATCH + SAME_COURSE_OTHER_DAYS} then 'Course 0' else 'Course ' || (1 + n % ${OTHER_COURSES}) end as course_title,
           case when n <= ${BATCH + REVOKED_IN_BATCH}
                then ${batchFrom}::date + ((n % 5) || ' days')::interval + ((n * 37 % 86400) || ' seconds')::interval
                else ${batchFrom}::date - ((n % 360 + 6) || ' days')::interval + ((n * 37 % 86400) || ' seconds')::interval end as issued_at
    from (select id, row_number() over (order by email) as n from users where email like 'seafarer%@example.com') as u`);
  await tx.execute(sql`
    insert into test_attempts (user_id, test_id, course_id, started_at, submitted_at, score, total_questions, percentage, passed, time_taken_seconds)
    select s.user_id, t.id, c.id, s.issued_at, s.issued_at, 2, 2, 100, true, 60
    from seeded s join courses c on c.title = s.course_title join tests t on t.course_id = c.id`);
  await tx.execute(sql`
    insert into certificates (user_id, course_id, attempt_id, number, verification_code, status, holder_name, holder_date_of_birth,
      holder_indos_no, holder_passport_number, holder_cdc_number, course_code, approval_number, valid_until, created_at, revoked_at)
    select s.user_id, a.course_id, a.id, 'MTA/2026/' || lpad(s.n::text, 6, '0'), md5(random()::text) || s.n, 'ready',
           u.first_name || ' ' || u.last_name, date '1970-01-01' + (s.n % 12000)::int,
           case when s.n % 50 = 0 then null else lpad((s.n * 7919 % 100000000)::text, 8, '0') || 'ZL' end,
           'Z' || lpad(s.n::text, 7, '0'),
           case when s.n % 30 = 0 then null else 'MUM ' || lpad(s.n::text, 6, '0') end,
           c.code, c.approval_number, (s.issued_at::date + interval '60 months' - interval '1 day')::date, s.issued_at,
           case when s.n between ${BATCH + 1} and ${BATCH + REVOKED_IN_BATCH} then now() end
    from seeded s join test_attempts a on a.user_id = s.user_id join users u on u.id = s.user_id join courses c on c.id = a.course_id`);
  });
  await runtime.db.execute(sql`vacuum analyze`);
  const [course] = await runtime.db.execute<{ id: string }>(sql`select id from courses where code = 'FPFF'`).then(
    (rows) => (Array.isArray(rows) ? rows : (rows as unknown as { rows: Array<{ id: string }> }).rows),
  );
  return course!.id;
}

/** Each download `rounds` times after one to warm up: the median and p95 of the whole answer, and its bytes. */
async function timeDownload(app: FastifyInstance, url: string, headers: Record<string, string>, rounds = ROUNDS) {
  const times: number[] = [];
  let bytes = 0;
  let rows = '';
  for (let round = 0; round <= rounds; round += 1) {
    const started = performance.now();
    const res = await app.inject({ url, headers });
    const elapsed = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    if (round > 0) times.push(elapsed);
    bytes = res.rawPayload.length;
    rows = String(res.headers['x-total-count']);
  }
  return { median: percentile(times, 50), p95: percentile(times, 95), bytes, rows };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function measure(runtime: Runtime): Promise<TBenchRow[]> {
  const batchFrom = addDays(utcDay(), -30);
  const batchTo = addDays(batchFrom, 4);
  const seedStarted = performance.now();
  const courseId = await seed(runtime, batchFrom);
  const seeded = performance.now() - seedStarted;
  const admin = await createUser(runtime.db, { role: 'admin', approvedAt: new Date() });
  const headers = { authorization: `Bearer ${signAccessToken({ sub: admin.id, role: 'admin', mf: 'passed' }, runtime.jwtSecret, 900)}` };
  const app = await buildApp(runtime);
  try {
    const batch = `courseId=${courseId}&from=${batchFrom}&to=${batchTo}`;
    const csv = await timeDownload(app, `/api/certificates/regulator-batch.csv?${batch}`, headers);
    const xlsx = await timeDownload(app, `/api/certificates/regulator-batch.xlsx?${batch}`, headers);
    const list = await timeDownload(app, '/api/certificates/list.csv', headers, LIST_ROUNDS);
    const searched = await timeDownload(app, '/api/certificates/list.csv?search=nair&state=valid', headers, LIST_ROUNDS);
    if (csv.rows !== String(BATCH) || xlsx.rows !== String(BATCH)) throw new Error(`the batch has ${csv.rows} / ${xlsx.rows} rows, not ${BATCH}`);
    const note = `${BATCH.toLocaleString('en')} completions of one course over five days (${REVOKED_IN_BATCH} revoked left out), among ${list.rows} certificates; median of ${ROUNDS} after a warm-up, through the app (inject)`;
    return [
      { figure: 'Regulator batch of 1,000 completions: CSV', value: `${ms(csv.median)} median, ${ms(csv.p95)} p95, ${kb(csv.bytes)}`, note },
      { figure: 'Regulator batch of 1,000 completions: XLSX', value: `${ms(xlsx.median)} median, ${ms(xlsx.p95)} p95, ${kb(xlsx.bytes)}`, note: 'the same rows, every cell text, one sheet' },
      { figure: `Certificate list CSV, every certificate (${list.rows})`, value: `${ms(list.median)} median, ${ms(list.p95)} p95, ${kb(list.bytes)}`, note: `streamed 500 rows a batch; median of ${LIST_ROUNDS}` },
      { figure: `Certificate list CSV, search "nair" and state valid (${searched.rows})`, value: `${ms(searched.median)} median, ${ms(searched.p95)} p95, ${kb(searched.bytes)}`, note: `seeding took ${ms(seeded)}` },
    ];
  } finally {
    await app.close();
  }
}

async function withRuntime<T>(databaseUrl: string, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-regulator-'));
  const env = parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl });
  const runtime = await createRuntime(env, createLogger(env.LOG_LEVEL), { inMemoryDatabase: true, clientDir: path.join(dataDir, 'none') });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const regulatorExportBenchmark: TBenchmark = {
  name: 'Regulator export',
  async run() {
    if (!BENCH_DATABASE_URL) return [{ figure: 'Regulator batch of 1,000 completions', value: 'not measured', note: 'set BENCH_DATABASE_URL (PostgreSQL)' }];
    return withFreshPostgres(BENCH_DATABASE_URL, (url) => withRuntime(url, measure));
  },
};

// `tsx bench/regulator-export.bench.ts` measures this alone (no client build needed).
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await regulatorExportBenchmark.run()) process.stdout.write(`${row.figure}: ${row.value}${row.note ? ` (${row.note})` : ''}\n`);
}

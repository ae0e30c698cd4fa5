import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { renderCertificatePdf } from '../src/server/modules/certificates/certificate-document.tsx';
import { signAccessToken } from '../src/server/lib/tokens.ts';
import { BENCH_DATABASE_URL, freePort, ms, percentile, startProcess, stopProcess, waitForOk, withFreshPostgres, type TBenchmark, type TBenchRow } from './support.ts';

const RENDERS = 30;
const PASS_ROUNDS = 20;
const CONCURRENT_LEARNERS = 200;
const RESULT_LEARNERS = 20_000;
const ATTEMPTS_PER_LEARNER = 50;
const RESULT_COURSES = 50;
const SEARCH_ROUNDS = 30;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
/** `BENCH_ONLY=results-search` measures the results search alone (it needs no Redis and no client build). */
const ONLY_RESULTS_SEARCH = process.env.BENCH_ONLY === 'results-search';
/**
 * A database of its own kept between runs for the results search (seeded on the first run only),
 * instead of a fresh one seeded each time; the portal migrates it when it starts.
 */
const RESULTS_DATABASE_URL = process.env.BENCH_RESULTS_DATABASE_URL;

/** A Redis database of its own, so no other worker on the same server takes this run's jobs. */
function isolatedRedis(base: string): string {
  const url = new URL(base);
  url.pathname = `/${1 + (randomBytes(1)[0]! % 15)}`;
  return url.toString();
}

/** Removes this run's queue (BullMQ's default prefix, queue `jobs`) from that database, and nothing else. */
async function flushRedis(url: string) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    for (let cursor = '0'; ; ) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'bull:jobs:*', 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    redis.disconnect();
  }
}

/** The portal (and, when asked, `npm run worker`) as production runs them: built bundles, own processes. */
async function startPortal(env: Record<string, string>, options: { worker?: boolean } = {}) {
  const port = await freePort();
  const child = startProcess('dist/server/index.js', { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}` });
  const base = `http://127.0.0.1:${port}`;
  const worker = options.worker ? startProcess('dist/workers/index.js', { ...env, PUBLIC_URL: base }) : undefined;
  try {
    await waitForOk(`${base}/readyz`, performance.now());
  } catch (error) {
    await stopProcess(child);
    if (worker) await stopProcess(worker);
    throw error;
  }
  return {
    base,
    async stop() {
      await stopProcess(child);
      if (worker) await stopProcess(worker);
    },
  };
}

async function call(base: string, method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, never> | null };
}

/** A course with a published test of two questions (pass mark 50), and `learners` who finished its training. */
async function seedCourseWithLearners(sql: postgres.Sql, learners: number, label: string) {
  const [course] = await sql<{ id: string }[]>`
    insert into courses (title, description, duration, price, category, subjects, is_active)
    values (${`Basic Safety Training ${label}`}, 'Personal survival, fire prevention, first aid.', '5 days', 4500, 'STCW', '["Personal survival"]'::jsonb, true)
    returning id`;
  const [test] = await sql<{ id: string }[]>`
    insert into tests (course_id, title, pass_mark, is_published) values (${course!.id}, ${`Basic Safety Training ${label}`}, 50, true) returning id`;
  const questions = await sql<{ id: string; correct_answer: string }[]>`
    insert into test_questions (test_id, position, question_text, options, correct_answer)
    values (${test!.id}, 1, 'Which extinguisher suits an electrical fire?', '["Water","CO2","Foam","Wet sand"]'::jsonb, 'CO2'),
           (${test!.id}, 2, 'A lifejacket light must burn for at least how long?', '["2 hours","4 hours","8 hours","12 hours"]'::jsonb, '8 hours')
    returning id, correct_answer`;
  const users = await sql<{ id: string }[]>`
    insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
    select 'Mr', 'Priya', 'Menon ' || ${label} || ' ' || i, '9876543210', 'cadet-' || ${label} || '-' || i || '@fleet.example', 'not-a-hash', 'learner', now(), now()
    from generate_series(1, ${learners}) i
    returning id`;
  await sql`
    insert into profiles (user_id, name, grade_number, phone, date_of_birth, passport_number, passport_expiry_date, indos_no, cdc_number, cdc_expiry_date, id_type, street_address, city, state, country, zip_code, profile_picture_file, id_document_file, signature_file, consent_accepted_at)
    select u.id, 'Priya Menon', 'G-2', '+919876543210', '1990-04-12', 'P' || left(u.id::text, 8), '2034-01-31', '12AB' || left(u.id::text, 4), 'CDC1', '2033-06-30', 'aadhaar', '12 Marine Drive', 'Mumbai', 'Maharashtra', 'India', '400002', gen_random_uuid() || '.png', gen_random_uuid() || '.pdf', gen_random_uuid() || '.png', now()
    from unnest(${users.map((user) => user.id)}::uuid[]) as u(id)`;
  await sql`
    insert into enrolments (user_id, course_id, status, decided_at, training_submitted_at)
    select u.id, ${course!.id}, 'approved', now(), now() from unnest(${users.map((user) => user.id)}::uuid[]) as u(id)`;
  const answers = questions.map((question) => ({ questionId: question.id, selectedAnswer: question.correct_answer }));
  return { courseId: course!.id, testId: test!.id, answers, learnerIds: users.map((user) => user.id) };
}

/**
 * The certificate as first drawn, in the standard fonts (none embedded), measured the same way
 * (30 renders after a first one) on the bench machine just before the fonts were embedded.
 */
const STANDARD_FONT_RENDER = { p50: 40.7, p95: 70.6, kib: 10.3 };

/** (a) The PDF alone, in this process: the first render (fonts and code loading) and the next ones. */
async function renderFigures(rows: TBenchRow[]) {
  const names = ['Priya Menon', 'María-José Ñúñez Dvořák', 'श्रीमती अन्नपूर्णा चक्रवर्ती', 'Наталья Воронцова-Дашкова'];
  const content = (i: number) => ({
    academyName: 'Maritime Training Academy',
    academyCity: 'Mumbai',
    holderName: `${names[i % names.length]!} ${i}`,
    indosNo: `12AB${String(3456 + i)}`,
    dateOfBirth: '12 April 1990',
    passportNumber: `Z${String(1234567 + i)}`,
    courseTitle: 'Basic Safety Training (STCW A-VI/1)',
    courseCode: 'BST',
    approvalNumber: 'DGS/MTI/2021/BST/0457',
    number: `MTA/2026/${String(123 + i).padStart(6, '0')}`,
    version: 1,
    issuedOn: '24 November 2026',
    reissuedOn: null,
    validUntil: '23 November 2031',
    // The QR code and the printed link carry the certificate's secret code beside the number.
    verifyUrl: `https://academy.example/verify/MTA/2026/${String(123 + i).padStart(6, '0')}?code=${randomBytes(20).toString('base64url')}`,
  });
  let started = performance.now();
  const first = await renderCertificatePdf(content(0));
  const cold = performance.now() - started;
  const times: number[] = [];
  for (let i = 1; i <= RENDERS; i += 1) {
    started = performance.now();
    await renderCertificatePdf(content(i));
    times.push(performance.now() - started);
  }
  rows.push({
    figure: 'Certificate render (react-pdf, A4 landscape with QR, fonts embedded)',
    value: `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`,
    note: `${RENDERS} renders (Latin, accented, Devanagari and Cyrillic names in turn) after a first one of ${ms(cold)} (the fonts read and registered); ${(first.length / 1024).toFixed(1)} KiB each`,
  });
  rows.push({
    figure: '  the same with the standard fonts (before the fonts were embedded)',
    value: `p50 ${ms(STANDARD_FONT_RENDER.p50)}, p95 ${ms(STANDARD_FONT_RENDER.p95)}`,
    note: `measured before the change, not in this run: Helvetica and Times, not embedded, Latin-1 only; ${STANDARD_FONT_RENDER.kib} KiB`,
  });
}

/** (b) Pass → PDF downloadable, through the API process and `npm run worker` on Redis, one learner at a time. */
async function passToPdfFigures(rows: TBenchRow[], databaseUrl: string, redisUrl: string, env: Record<string, string>) {
  const portal = await startPortal({ ...env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }, { worker: true });
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const seeded = await seedCourseWithLearners(sql, PASS_ROUNDS + 3, 'pass');
    const times: number[] = [];
    for (const [index, learnerId] of seeded.learnerIds.entries()) {
      const token = signAccessToken({ sub: learnerId, role: 'learner' }, env.JWT_SECRET!, 3600);
      const opened = await call(portal.base, 'GET', `/api/test/${seeded.courseId}`, token);
      if (opened.status !== 200) throw new Error(`GET /api/test: ${opened.status}`);
      const started = performance.now();
      const submitted = await call(portal.base, 'POST', '/api/submitTest', token, { testId: seeded.testId, courseId: seeded.courseId, answers: seeded.answers, timeTaken: 60 });
      if (submitted.status !== 201) throw new Error(`POST /api/submitTest: ${submitted.status}`);
      let filename: string | undefined;
      while (!filename) {
        const answer = await call(portal.base, 'GET', `/api/certificate/${seeded.courseId}`, token);
        filename = answer.status === 200 ? (answer.body as unknown as { data: { pdfPath: { filename: string } } }).data.pdfPath.filename : undefined;
        if (!filename) {
          if (performance.now() - started > 30_000) throw new Error('certificate not ready in 30 s');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      const pdf = await fetch(`${portal.base}/certificates/${filename}`);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      if (pdf.status !== 200 || bytes.subarray(0, 5).toString() !== '%PDF-') throw new Error(`PDF answered ${pdf.status}`);
      // The first three warm the worker (module loading, fonts).
      if (index >= 3) times.push(performance.now() - started);
    }
    rows.push({
      figure: 'Pass → PDF downloadable (worker on Redis)',
      value: `p95 ${ms(percentile(times, 95))}`,
      note: `aim ≤ 1 s; p50 ${ms(percentile(times, 50))}; ${times.length} passes one after another: POST /api/submitTest, GET /api/certificate polled every 10 ms, the PDF fetched; API and \`npm run worker\` in processes of their own`,
    });
  } finally {
    await sql.end();
    await portal.stop();
  }
}

/** (c) 200 learners submit at once, each twice (a double click): the latency, and the rows afterwards. */
async function concurrentSubmitFigures(rows: TBenchRow[], databaseUrl: string, redisUrl: string, env: Record<string, string>) {
  // No worker: the renders wait in Redis, so the figure is the submission's alone.
  const portal = await startPortal({ ...env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const seeded = await seedCourseWithLearners(sql, CONCURRENT_LEARNERS, 'crowd');
    const tokens = seeded.learnerIds.map((id) => signAccessToken({ sub: id, role: 'learner' }, env.JWT_SECRET!, 3600));
    for (const token of tokens) {
      const opened = await call(portal.base, 'GET', `/api/test/${seeded.courseId}`, token);
      if (opened.status !== 200) throw new Error(`GET /api/test: ${opened.status}`);
    }
    const body = { testId: seeded.testId, courseId: seeded.courseId, answers: seeded.answers, timeTaken: 60 };
    const times: number[] = [];
    const statuses = new Map<number, number>();
    const started = performance.now();
    await Promise.all(
      tokens.flatMap((token) =>
        [0, 1].map(async () => {
          const at = performance.now();
          const answer = await call(portal.base, 'POST', '/api/submitTest', token, body);
          times.push(performance.now() - at);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }),
      ),
    );
    const wall = performance.now() - started;
    const [counts] = await sql<{ learners: number; lost: number; duplicated: number; attempts: number; certificates: number; numbers: number }[]>`
      with per as (
        select u.id, count(a.id) filter (where a.submitted_at is not null) as submitted
        from unnest(${seeded.learnerIds}::uuid[]) as u(id)
        left join test_attempts a on a.user_id = u.id and a.test_id = ${seeded.testId}
        group by u.id)
      select count(*)::int as learners,
        count(*) filter (where submitted = 0)::int as lost,
        count(*) filter (where submitted > 1)::int as duplicated,
        coalesce(sum(submitted), 0)::int as attempts,
        (select count(*)::int from certificates where course_id = ${seeded.courseId}) as certificates,
        (select count(distinct number)::int from certificates where course_id = ${seeded.courseId}) as numbers
      from per`;
    rows.push({
      figure: `POST /api/submitTest, ${CONCURRENT_LEARNERS} learners at once (each twice)`,
      value: `p99 ${ms(percentile(times, 99))}`,
      note: `p50 ${ms(percentile(times, 50))}; ${times.length} requests in ${ms(wall)}; answers ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}`,
    });
    rows.push({
      figure: '  attempts afterwards',
      value: `${counts!.lost} lost, ${counts!.duplicated} duplicated`,
      note: `${counts!.attempts} submitted attempts for ${counts!.learners} learners; ${counts!.certificates} certificates with ${counts!.numbers} distinct numbers`,
    });
  } finally {
    await sql.end();
    await portal.stop();
  }
}

/** 20 000 learners × 50 attempts over 50 courses: 1 000 000 submitted attempts, and the certificates of their passes. */
async function seedResults(sql: postgres.Sql) {
  await sql.unsafe(`
    insert into courses (title, description, duration, price, category, subjects, is_active)
    select (array['Basic Safety Training','Advanced Fire Fighting','Hazardous Material Transportation','Helicopter Landing Assistance','Food Handling','Hydrogen Sulphide Awareness'])[1 + i % 6] || ' ' || i,
      'Practical and theory sessions.', '5 days', 4500, 'STCW', '["Personal survival"]'::jsonb, true
    from generate_series(1, ${RESULT_COURSES}) i`);
  await sql.unsafe(`
    insert into tests (course_id, title, pass_mark, is_published) select id, title, 60, true from courses`);
  await sql.unsafe(`
    insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at)
    select 'Mr',
      (array['Arjun','Priya','Rahul','Sneha','Vikram','Anita','Kiran','Deepak','Meera','Rohan','Kavya','Suresh'])[1 + i % 12],
      (array['Nair','Iyer','Menon','Pillai','Sharma','Das','Rao','Singh','Kumar','Fernandes'])[1 + (i / 12) % 10] || ' ' || i,
      '9876543210', 'seafarer' || i || '@fleet.example', 'not-a-hash', 'learner', now(), now()
    from generate_series(1, ${RESULT_LEARNERS}) i`);
  await sql.unsafe(`
    with learners as (select id, row_number() over (order by email) as n from users where role = 'learner'),
         catalogue as (select c.id as course_id, t.id as test_id, row_number() over (order by c.title) as n from courses c join tests t on t.course_id = c.id)
    insert into test_attempts (user_id, test_id, course_id, started_at, submitted_at, score, total_questions, percentage, time_taken_seconds, passed)
    select l.id, c.test_id, c.course_id,
      now() - ((l.n * ${ATTEMPTS_PER_LEARNER} + k) * 20 + 300 || ' seconds')::interval,
      now() - ((l.n * ${ATTEMPTS_PER_LEARNER} + k) * 20 || ' seconds')::interval,
      (l.n + k) % 11, 10, ((l.n + k) % 11) * 10, 300, (l.n + k) % 11 >= 6
    from learners l
    cross join generate_series(0, ${ATTEMPTS_PER_LEARNER - 1}) k
    join catalogue c on c.n = 1 + (l.n * 7 + k * 13) % ${RESULT_COURSES}`);
  await sql.unsafe(`
    insert into certificates (user_id, course_id, attempt_id, number, verification_code, status, pdf_file)
    select distinct on (user_id, course_id) user_id, course_id, id,
      'MTA/2026/' || lpad(nextval('certificate_number_seq')::text, 6, '0'), replace(gen_random_uuid()::text, '-', ''), 'ready',
      left(md5(random()::text) || md5(random()::text), 36) || '.pdf'
    from test_attempts where passed order by user_id, course_id, submitted_at`);
  await sql.unsafe('vacuum analyze');
}

/** (d) Test Results searched over 1 000 000 attempts, over HTTP as the admin screen asks. */
async function resultsSearchFigures(rows: TBenchRow[], databaseUrl: string, env: Record<string, string>) {
  const portal = await startPortal({ ...env, DATABASE_URL: databaseUrl });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const seeding = performance.now();
    const [seededBefore] = await sql<{ id: string }[]>`select id from users where email = 'bench-admin@academy.example'`;
    if (!seededBefore) await seedResults(sql);
    else await sql.unsafe('analyze');
    const [admin] = seededBefore
      ? [seededBefore]
      : await sql<{ id: string }[]>`
      insert into users (title, first_name, last_name, mobile, email, password_hash, role, staff_role, verified_at)
      values ('Mr', 'Bench', 'Admin', '9876543210', 'bench-admin@academy.example', 'not-a-hash', 'admin', 'owner', now()) returning id`;
    const [counts] = await sql<{ attempts: number; certificates: number }[]>`
      select (select count(*)::int from test_attempts) as attempts, (select count(*)::int from certificates) as certificates`;
    const seeded = performance.now() - seeding;

    const token = signAccessToken({ sub: admin!.id, role: 'admin', mf: 'passed' }, env.JWT_SECRET!, 3600);
    const searches: Array<[string, string]> = [
      ['first page, no search', ''],
      ['page 500, no search', '&page=500'],
      ['an e-mail', `&search=${encodeURIComponent('seafarer4242@fleet')}`],
      ['a surname with number', `&search=${encodeURIComponent('menon 777')}`],
      ['a common first name', '&search=priya'],
      ['page 500 of a common first name', '&search=priya&page=500'],
      ['a course title', `&search=${encodeURIComponent('helicopter landing')}`],
      ['nothing matches', '&search=zzqx'],
    ];
    const timings = new Map<string, number[]>(searches.map(([label]) => [label, []]));
    const totals = new Map<string, string>();
    const all: number[] = [];
    for (let round = -3; round < SEARCH_ROUNDS; round += 1) {
      for (const [label, query] of searches) {
        const started = performance.now();
        const res = await fetch(`${portal.base}/api/submitTest?pageSize=20${query}`, { headers: { authorization: `Bearer ${token}` } });
        const page = (await res.json()) as { total: number; totalIsEstimate?: boolean };
        const elapsed = performance.now() - started;
        if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status}`);
        if (round < 0) continue;
        totals.set(label, page.totalIsEstimate ? `${page.total.toLocaleString('en')}+` : page.total.toLocaleString('en'));
        timings.get(label)!.push(elapsed);
        all.push(elapsed);
      }
    }
    rows.push({
      figure: 'Test Results search p95 (GET /api/submitTest?search=&page=&pageSize=20)',
      value: ms(percentile(all, 95)),
      note: `aim < 50 ms; p50 ${ms(percentile(all, 50))}; ${all.length} requests over HTTP; ${counts!.attempts.toLocaleString('en')} attempts, ${counts!.certificates.toLocaleString('en')} certificates, ${RESULT_LEARNERS.toLocaleString('en')} learners; seeded in ${ms(seeded)}`,
    });
    for (const [label, values] of timings) {
      rows.push({ figure: `  search: ${label}`, value: ms(percentile(values, 95)), note: `p50 ${ms(percentile(values, 50))}; ${totals.get(label)} matching` });
    }
  } finally {
    await sql.end();
    await portal.stop();
  }
}

/** The certificate's figures: render time, pass → PDF through the worker, 200 learners submitting at once, results search over 1 000 000 attempts. */
export const certificatesBenchmark: TBenchmark = {
  name: 'Tests and certificates',
  async run() {
    const rows: TBenchRow[] = [];
    if (ONLY_RESULTS_SEARCH) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
      const env = { DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex') };
      try {
        if (RESULTS_DATABASE_URL) await resultsSearchFigures(rows, RESULTS_DATABASE_URL, env);
        else if (BENCH_DATABASE_URL) await withFreshPostgres(BENCH_DATABASE_URL, (url) => resultsSearchFigures(rows, url, env));
        else rows.push({ figure: 'Results search', value: 'not measured', note: 'set BENCH_DATABASE_URL or BENCH_RESULTS_DATABASE_URL (PostgreSQL)' });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      return rows;
    }
    await renderFigures(rows);
    const base = BENCH_DATABASE_URL;
    if (!base || !REDIS_URL) {
      rows.push({ figure: 'Pass → PDF, concurrent submissions, results search', value: 'not measured', note: 'set BENCH_DATABASE_URL (PostgreSQL) and BENCH_REDIS_URL or TEST_REDIS_URL' });
      return rows;
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
    const env = { DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex') };
    const redisUrl = isolatedRedis(REDIS_URL);
    try {
      await flushRedis(redisUrl);
      await withFreshPostgres(base, (url) => passToPdfFigures(rows, url, redisUrl, env));
      await flushRedis(redisUrl);
      await withFreshPostgres(base, (url) => concurrentSubmitFigures(rows, url, redisUrl, env));
      await flushRedis(redisUrl);
      await withFreshPostgres(base, (url) => resultsSearchFigures(rows, url, env));
    } finally {
      await flushRedis(redisUrl).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
    return rows;
  },
};

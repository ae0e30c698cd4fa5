import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { signAccessToken } from '../src/server/lib/tokens.ts';
import { freePort, ms, percentile, startProcess, stopProcess, throughput, waitForOk, type TBenchmark, type TBenchRow, withFreshPostgres } from './support.ts';

const LEARNERS = 100_000;
const ENROLMENTS_PER_LEARNER = 2;
const CATALOGUE_COURSES = 50;
const SEARCH_ROUNDS = 30;

/** The portal as production runs it (built bundle, own process) on the given database. */
async function startPortal(env: Record<string, string>) {
  const port = await freePort();
  const child = startProcess('dist/server/index.js', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${base}/readyz`, performance.now());
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { base, stop: () => stopProcess(child) };
}

const SUBJECTS = JSON.stringify(['Personal survival techniques', 'Fire prevention and fire fighting', 'Elementary first aid']);

/** 50 active courses (and a few inactive), with the text lengths a real catalogue has. */
async function seedCatalogue(sql: postgres.Sql) {
  await sql.unsafe(`
    insert into courses (title, description, duration, price, category, subjects, image_file, image_width, image_height, is_active)
    select
      (array['Basic Safety Training','Advanced Fire Fighting','Hazardous Material Transportation','Helicopter Landing Assistance','Food Handling','Hydrogen Sulphide Awareness'])[1 + i % 6] || ' ' || i,
      repeat('Practical and theory sessions aboard a training vessel, assessed by certified instructors. ', 3),
      (1 + i % 10) || ' days', 2500 + i * 100, (array['STCW','DG Shipping','Offshore'])[1 + i % 3],
      '${SUBJECTS}'::jsonb, gen_random_uuid() || '.webp', 640, 320, i <= ${CATALOGUE_COURSES}
    from generate_series(1, ${CATALOGUE_COURSES + 5}) i`);
}

/** 100 000 approved learners, each with two enrolments (20 % pending, 70 % approved, 10 % rejected). */
async function seedEnrolments(sql: postgres.Sql) {
  await sql.unsafe(`
    insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, approved_at, created_at)
    select 'Mr',
      (array['Arjun','Priya','Rahul','Sneha','Vikram','Anita','Kiran','Deepak','Meera','Rohan','Kavya','Suresh'])[1 + i % 12],
      (array['Nair','Iyer','Menon','Pillai','Sharma','Das','Rao','Singh','Kumar','Fernandes'])[1 + (i / 12) % 10] || ' ' || i,
      '9876543210', 'seafarer' || i || '@fleet.example', 'not-a-hash', 'learner', now(), now(),
      now() - (i || ' minutes')::interval
    from generate_series(1, ${LEARNERS}) i`);
  await sql.unsafe(`
    with learners as (select id, row_number() over (order by email) as n from users where role = 'learner'),
         catalogue as (select id, row_number() over (order by title) as n from courses),
         total as (select count(*) as c from catalogue)
    insert into enrolments (user_id, course_id, status, requested_at, created_at)
    select l.id, c.id,
      (array['pending','pending','approved','approved','approved','approved','approved','approved','approved','rejected'])[1 + (l.n * 7 + k) % 10]::enrolment_status,
      now() - ((l.n * ${ENROLMENTS_PER_LEARNER} + k) || ' seconds')::interval,
      now() - ((l.n * ${ENROLMENTS_PER_LEARNER} + k) || ' seconds')::interval
    from learners l
    cross join generate_series(0, ${ENROLMENTS_PER_LEARNER - 1}) k
    cross join total
    join catalogue c on c.n = 1 + (l.n * 7 + k * 13) % total.c`);
  // As autovacuum would have by then: statistics, and a visibility map for index-only scans.
  await sql.unsafe('vacuum analyze');
}

async function catalogueFigures(rows: TBenchRow[], env: Record<string, string>, databaseUrl: string) {
  const portal = await startPortal({ ...env, DATABASE_URL: databaseUrl });
  const helloPort = await freePort();
  const hello = startProcess('bench/hello-world.mjs', { PORT: String(helloPort) });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await seedCatalogue(sql);
    await waitForOk(`http://127.0.0.1:${helloPort}/api/site-config`, performance.now());
    const url = `${portal.base}/api/courses/active`;

    const first = await fetch(url);
    const body = (await first.json()) as { data: unknown[] };
    const etag = first.headers.get('etag') ?? '';
    const revalidated = await fetch(url, { headers: { 'if-none-match': etag } });
    if (body.data.length !== CATALOGUE_COURSES) throw new Error(`expected ${CATALOGUE_COURSES} courses, got ${body.data.length}`);
    rows.push({
      figure: 'GET /api/courses/active answer cacheable',
      value: revalidated.status === 304 && etag ? 'yes' : 'no',
      note: `ETag ${etag}, Cache-Control "${first.headers.get('cache-control')}"; If-None-Match → ${revalidated.status}; ${(JSON.stringify(body).length / 1024).toFixed(1)} KB for ${body.data.length} courses`,
    });

    // What browsers send; the catalogue is kept compressed, as it is sent.
    const browser = { 'accept-encoding': 'gzip, deflate, br' };
    const compressed = await fetch(url, { headers: browser });
    await compressed.arrayBuffer();
    const compressedBytes = Number(compressed.headers.get('content-length'));
    await throughput(`http://127.0.0.1:${helloPort}/api/site-config`, { seconds: 2 });
    await throughput(url, { seconds: 2, headers: browser });
    const bare = await throughput(`http://127.0.0.1:${helloPort}/api/site-config`);
    const full = await throughput(url, { headers: browser });
    const plain = await throughput(url, { headers: { 'accept-encoding': 'identity' } });
    // The stack's smallest answer on the same process, to tell the route's cost from the stack's.
    const smallest = await throughput(`${portal.base}/api/site-config`, { headers: browser });
    rows.push({ figure: 'Bare Fastify hello-world (same run)', value: `${Math.round(bare.rps)} req/s`, note: `p99 ${bare.p99Ms} ms` });
    rows.push({
      figure: `GET /api/courses/active, ${CATALOGUE_COURSES} courses, 200 with the full list`,
      value: `${Math.round(full.rps)} req/s`,
      note: `p99 ${full.p99Ms} ms; browser Accept-Encoding (${compressed.headers.get('content-encoding')}, ${(compressedBytes / 1024).toFixed(1)} KB); PostgreSQL`,
    });
    rows.push({ figure: 'Catalogue throughput ratio (portal / bare Fastify)', value: (full.rps / bare.rps).toFixed(2), note: 'aim ≥ 0.5' });
    rows.push({
      figure: 'Same, uncompressed (no Accept-Encoding)',
      value: `${Math.round(plain.rps)} req/s`,
      note: `ratio ${(plain.rps / bare.rps).toFixed(2)}; p99 ${plain.p99Ms} ms`,
    });
    rows.push({
      figure: 'Same portal, GET /api/site-config (smallest answer, full stack)',
      value: `${Math.round(smallest.rps)} req/s`,
      note: `ratio ${(smallest.rps / bare.rps).toFixed(2)}; the catalogue runs at ${(full.rps / smallest.rps).toFixed(2)} × this`,
    });
  } finally {
    await sql.end();
    await portal.stop();
    await stopProcess(hello);
  }
}

async function searchFigures(rows: TBenchRow[], env: Record<string, string>, databaseUrl: string) {
  const portal = await startPortal({ ...env, DATABASE_URL: databaseUrl });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const seeding = performance.now();
    await seedCatalogue(sql);
    await seedEnrolments(sql);
    const [admin] = await sql<{ id: string }[]>`
      insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at)
      values ('Mr', 'Bench', 'Admin', '9876543210', 'bench-admin@academy.example', 'not-a-hash', 'admin', now()) returning id`;
    const [counts] = await sql<{ pending: number; total: number }[]>`
      select count(*) filter (where status = 'pending')::int as pending, count(*)::int as total from enrolments`;
    const seeded = performance.now() - seeding;

    const token = signAccessToken({ sub: admin!.id, role: 'admin' }, env.JWT_SECRET!, 3600);
    const searches: Array<[string, string]> = [
      ['first page, no search', ''],
      ['page 100, no search', '&page=100'],
      ['an e-mail', `&search=${encodeURIComponent('seafarer4242@fleet')}`],
      ['a surname with number', `&search=${encodeURIComponent('menon 777')}`],
      ['a common first name', '&search=priya'],
      ['a course title', `&search=${encodeURIComponent('helicopter landing')}`],
      ['nothing matches', '&search=zzqx'],
    ];
    const timings = new Map<string, number[]>(searches.map(([label]) => [label, []]));
    const all: number[] = [];
    let lastTotal = new Map<string, number>();
    for (let round = -3; round < SEARCH_ROUNDS; round += 1) {
      for (const [label, query] of searches) {
        const started = performance.now();
        const res = await fetch(`${portal.base}/api/userCourses/inactive?pageSize=20${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const page = (await res.json()) as { total: number };
        const elapsed = performance.now() - started;
        if (res.status !== 200) throw new Error(`${label}: HTTP ${res.status}`);
        if (round < 0) continue; // warm-up
        lastTotal = lastTotal.set(label, page.total);
        timings.get(label)!.push(elapsed);
        all.push(elapsed);
      }
    }
    rows.push({
      figure: 'Enrolment-request search p95 (GET /api/userCourses/inactive)',
      value: ms(percentile(all, 95)),
      note: `aim < 50 ms; p50 ${ms(percentile(all, 50))}; ${all.length} requests over HTTP, ${LEARNERS.toLocaleString('en')} learners, ${counts!.total.toLocaleString('en')} enrolments (${counts!.pending.toLocaleString('en')} pending); seeded in ${ms(seeded)}`,
    });
    for (const [label, values] of timings) {
      rows.push({
        figure: `  search: ${label}`,
        value: ms(percentile(values, 95)),
        note: `p50 ${ms(percentile(values, 50))}; ${lastTotal.get(label)} matching`,
      });
    }
  } finally {
    await sql.end();
    await portal.stop();
  }
}

export const coursesBenchmark: TBenchmark = {
  name: 'Courses and enrolment',
  async run() {
    const rows: TBenchRow[] = [];
    const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!base) {
      return [{ figure: 'Courses and enrolment', value: 'not measured', note: 'set BENCH_DATABASE_URL (a PostgreSQL server)' }];
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
    const env = { DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex') };
    try {
      await withFreshPostgres(base, (url) => catalogueFigures(rows, env, url));
      await withFreshPostgres(base, (url) => searchFigures(rows, env, url));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    return rows;
  },
};

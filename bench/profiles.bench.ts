import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { parseEnv } from '../src/server/env.ts';
import { createLogger } from '../src/server/lib/logger.ts';
import { signAccessToken } from '../src/server/lib/tokens.ts';
import { createRuntime, type Runtime } from '../src/server/runtime.ts';
import { createUser } from '../src/testing/factories.ts';
import { form, JPEG, PNG } from '../src/testing/multipart.ts';
import { ms, percentile, ROOT, type TBenchmark, type TBenchRow, withFreshPostgres } from './support.ts';

const PROFILES = 100_000;
const FIRST = ['Arjun', 'Priya', 'Ravi', 'Sneha', 'Vikram', 'Anita', 'Rahul', 'Kavya', 'Suresh', 'Meera', 'Joseph', 'Fatima', 'Deepak', 'Lakshmi', 'Manoj', 'Neha'];
const LAST = ['Nair', 'Sharma', 'Iyer', 'Das', 'Fernandes', 'Khan', 'Patel', 'Menon', 'Singh', 'Rao', 'Pillai', 'Gupta'];

/** 100 000 learners with profiles in two statements, values varied like real ones. */
export async function seed(runtime: Runtime) {
  const list = (values: string[]) => sql.raw(`array[${values.map((v) => `'${v}'`).join(',')}]`);
  await runtime.db.execute(sql`
    insert into users (title, first_name, last_name, mobile, email, password_hash, role, verified_at, created_at)
    select 'Mr', (${list(FIRST)})[1 + i % ${FIRST.length}], (${list(LAST)})[1 + (i / 7) % ${LAST.length}],
           '98' || lpad(i::text, 8, '0'), 'seafarer' || i || '@example.com', 'x', 'learner', now(),
           now() - (i || ' minutes')::interval
    from generate_series(1, ${PROFILES}) as i`);
  await runtime.db.execute(sql`
    insert into profiles (user_id, name, grade_number, phone, date_of_birth, passport_number, passport_expiry_date,
      indos_no, cdc_number, cdc_expiry_date, id_type, street_address, city, state, country, zip_code,
      profile_picture_file, id_document_file, signature_file, consent_accepted_at, created_at)
    select u.id, u.first_name || ' ' || u.last_name, 'G' || (n % 5), '+91' || u.mobile,
           date '1970-01-01' + (n % 12000)::int, 'Z' || lpad(n::text, 7, '0'), date '2025-01-01' + (n % 4000)::int,
           lpad((n * 7919 % 100000000)::text, 8, '0') || 'ZL', 'MUM' || lpad(n::text, 6, '0'), date '2025-01-01' + (n % 3000)::int,
           'aadhaar', n || ' Marine Drive', 'Mumbai', 'Maharashtra', 'India', '400002',
           gen_random_uuid() || '.png', gen_random_uuid() || '.pdf', gen_random_uuid() || '.png', now(), u.created_at
    from (select id, first_name, last_name, mobile, created_at, row_number() over (order by created_at) as n
          from users where email like 'seafarer%@example.com') as u`);
  // As autovacuum leaves a table after a bulk insert: statistics and the visibility map.
  await runtime.db.execute(sql`vacuum analyze`);
}

/** Search terms an administrator would type: names, e-mails and document numbers, whole or begun. */
function searchTerms(count: number): string[] {
  let state = 42;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const terms: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const n = 1 + next(PROFILES);
    const kinds = [
      () => `${FIRST[next(FIRST.length)]!} ${LAST[next(LAST.length)]!.slice(0, 3)}`.toLowerCase(),
      () => `seafarer${n}`,
      () => `Z${String(n).padStart(7, '0')}`,
      () => `mum${String(n).padStart(6, '0').slice(0, 4)}`,
      () => `${String((n * 7919) % 100_000_000).padStart(8, '0')}`,
    ];
    terms.push(kinds[i % kinds.length]!());
  }
  return terms;
}

async function measureSearch(runtime: Runtime, label: string): Promise<TBenchRow[]> {
  const started = performance.now();
  await seed(runtime);
  const seeded = performance.now() - started;
  const app = await buildApp(runtime);
  const admin = await createUser(runtime.db, { role: 'admin' });
  const headers = { authorization: `Bearer ${signAccessToken({ sub: admin.id, role: 'admin', mf: 'passed' }, runtime.jwtSecret, 3600)}` };
  const timed = async (query: string) => {
    const begin = performance.now();
    const res = await app.inject({ url: `/api/userProfile/getAllUserProfiles?${query}`, headers });
    if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
    return { ms: performance.now() - begin, total: res.json().total as number };
  };
  try {
    for (const term of searchTerms(50)) await timed(`search=${encodeURIComponent(term)}`);
    const searches = [];
    for (const term of searchTerms(500)) searches.push(await timed(`search=${encodeURIComponent(term)}`));
    const pages = [];
    for (let i = 0; i < 200; i += 1) pages.push(await timed(`page=${1 + ((i * 37) % 250)}&limit=20`));
    const broad = [];
    for (const term of ['a', 'r', 'sea', 'priya']) broad.push(await timed(`search=${term}`));
    const times = (list: Array<{ ms: number }>) => list.map((r) => r.ms);
    return [
      { figure: `${label}: seeding ${PROFILES.toLocaleString('en')} profiles`, value: ms(seeded) },
      {
        figure: `${label}: admin profile search p95`,
        value: ms(percentile(times(searches), 95)),
        note: `p50 ${ms(percentile(times(searches), 50))}, 500 searches (names, e-mails, passport, CDC, INDOS), 20 per page with total and signed URLs, through the REST route`,
      },
      {
        figure: `${label}: admin profile list without search p95`,
        value: ms(percentile(times(pages), 95)),
        note: `pages 1 to 250 of 20, p50 ${ms(percentile(times(pages), 50))}`,
      },
      {
        figure: `${label}: broadest searches (a, r, sea, priya)`,
        value: ms(Math.max(...times(broad))),
        note: `slowest of four; up to ${Math.max(...broad.map((r) => r.total)).toLocaleString('en')} matches counted`,
      },
    ];
  } finally {
    await app.close();
  }
}

async function withRuntime<T>(databaseUrl: string | undefined, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-profiles-'));
  const env = parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl });
  const runtime = await createRuntime(env, createLogger(env.LOG_LEVEL), { inMemoryDatabase: true, clientDir: path.join(dataDir, 'none') });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type TServerMessage = { port?: number; token?: string; started?: boolean; peakGrowth?: { rss: number; heapUsed: number; external: number }; retainedHeap?: number; retainedExternal?: number; baseRss?: number };

/** Streams a multipart profile submission with a 5 MB ID document to the server, 64 KiB at a time. */
function upload(port: number, token: string, documentBytes: number): Promise<number> {
  const fields = form([
    ...Object.entries({
      name: 'Arjun Nair', gradenumber: 'II', phone: '+919876543210', DateofBirth: '1990-04-12', passportNumber: 'Z1234567',
      passportExpiryDate: '2034-01-31', indosNo: '19ZL1234', CDCnumber: 'MUM123456', CDCexpiryDate: '2033-06-30',
      IDType: 'aadhaar', streetAddress: '12 Marine Drive', city: 'Mumbai', state: 'Maharashtra', country: 'India',
      zipCode: '400002', consent: 'true',
    }).map(([name, value]) => ({ name, value })),
    { name: 'profilePicture', file: PNG, filename: 'me.png' },
    { name: 'signature', file: JPEG, filename: 'sign.jpg' },
  ]);
  const boundary = fields.headers['content-type'].split('boundary=')[1]!;
  // The form's closing line is replaced by the large file's part, then closed again.
  const head = Buffer.concat([
    fields.payload.subarray(0, fields.payload.length - `--${boundary}--\r\n`.length),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="IdDocument"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/userProfile', headers: { ...fields.headers, authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    let left = documentBytes - 9;
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/**
 * On PostgreSQL when one is given, so the server's external memory holds Node's buffers only (the
 * embedded database's WebAssembly memory counts there too).
 */
async function measureUploadMemory(databaseUrl: string | undefined): Promise<TBenchRow[]> {
  const child = fork(path.join(ROOT, 'bench/profile-upload-server.ts'), [], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const replies: TServerMessage[] = [];
  let waiting: ((message: TServerMessage) => void) | undefined;
  child.on('message', (message: TServerMessage) => (waiting ? (waiting(message), (waiting = undefined)) : replies.push(message)));
  const next = () => new Promise<TServerMessage>((resolve) => (replies.length ? resolve(replies.shift()!) : (waiting = resolve)));
  const ask = (cmd: string) => {
    child.send({ cmd });
    return next();
  };
  try {
    const { port } = await next();
    const bytes = 5_000_000;
    // A first upload warms the code paths (module loading, JIT) so the second measures the upload.
    const warm = await upload(port!, (await ask('user')).token!, bytes);
    if (warm !== 201) throw new Error(`warm-up upload answered ${warm}`);
    const token = (await ask('user')).token!;
    await ask('start');
    const status = await upload(port!, token, bytes);
    const result = await ask('stop');
    if (status !== 201) throw new Error(`upload answered ${status}`);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
    return [
      {
        figure: 'One 5 MB profile upload: server RSS growth (peak)',
        value: mb(result.peakGrowth!.rss),
        note: `server process alone (${databaseUrl ? 'PostgreSQL' : 'PGlite'}), sampled every 2 ms; base RSS ${mb(result.baseRss!)}`,
      },
      { figure: 'One 5 MB profile upload: server heap growth (peak)', value: mb(result.peakGrowth!.heapUsed), note: `after gc: ${mb(result.retainedHeap!)} retained` },
      { figure: 'One 5 MB profile upload: buffers outside the heap (peak growth)', value: mb(result.peakGrowth!.external), note: `external + array buffers: network chunks not yet collected; after gc ${mb(result.retainedExternal!)}` },
    ];
  } finally {
    child.send({ cmd: 'exit' });
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export const profilesBenchmark: TBenchmark = {
  name: 'Profiles',
  async run() {
    const rows: TBenchRow[] = [];
    const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (base) {
      rows.push(...(await withFreshPostgres(base, (url) => withRuntime(url, (runtime) => measureSearch(runtime, 'PostgreSQL')))));
    } else {
      rows.push({ figure: 'PostgreSQL: admin profile search p95', value: 'not measured', note: 'set BENCH_DATABASE_URL' });
    }
    rows.push(...(await withRuntime(undefined, (runtime) => measureSearch(runtime, 'PGlite (embedded)'))));
    rows.push(...(base ? await withFreshPostgres(base, measureUploadMemory) : await measureUploadMemory(undefined)));
    return rows;
  },
};

/*
 * `npm run bench:cohort`: a cohort of virtual learners goes through the whole course, as the
 * spec's client calls the REST paths (section 7), against the built portal and its workers on
 * PostgreSQL and Redis, while an administrator works the approval lists:
 * register → verify from the real mail → log in → approved → enrol → accepted → watch (heartbeats)
 * → submit the training → open and pass the test → fetch the certificate's PDF.
 * Then the books are balanced: every acknowledged write is in the database exactly once.
 *
 *   npm run bench:cohort -- [--learners 300] [--concurrency 50] [--instances 1|2] [--s3] [--client-nice 10]
 *
 * With --instances 2, two portal processes and two workers run behind one port (round robin);
 * with --s3 their files live in a bucket of an S3-compatible server (s3rver) instead of one disk.
 * The virtual learners run in this process, on the same cores as the portal, which real learners'
 * devices do not; --client-nice lowers this process's priority once the portal and workers have
 * started at the normal one, so the learners take less of the portal's cores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request as httpRequest, createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { ARGON2_OPTIONS } from '../src/server/lib/passwords.ts';
import { makeClip } from '../src/testing/media.ts';
import { processStat, threadStats } from '../src/testing/proc-stat.ts';
import { form } from '../src/testing/multipart.ts';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import { createTestBucket, startS3Server } from '../src/testing/storage.ts';
import { BENCH_DATABASE_URL, freePort, percentile, startProcess, stopProcess, waitForOk, withFreshPostgres } from './support.ts';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const LEARNERS = argument('learners', 300);
const CONCURRENCY = argument('concurrency', 50);
const INSTANCES = argument('instances', 1);
const ON_S3 = process.argv.includes('--s3');
const CLIENT_NICE = argument('client-nice', 0);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { email: 'cohort-admin@academy.example', password: 'Harbour-Pilot-2026!' };
const CLIP_SECONDS = 3;
const QUESTIONS = [
  { questionText: 'Which side of a vessel is port?', options: ['Left', 'Right', 'Bow', 'Stern'], correctAnswer: 'Left' },
  { questionText: 'What does SOLAS stand for?', options: ['Safety of Life at Sea', 'Sea Operations', 'Ship Log', 'None'], correctAnswer: 'Safety of Life at Sea' },
];

// ---------------------------------------------------------------------------------------------
// A spec client: JSON over HTTP from one of several loopback addresses (per-address limits apply).

type TAnswer = { status: number; body: any; headers: IncomingHttpHeaders }; // eslint-disable-line @typescript-eslint/no-explicit-any
const agents = new Map<string, Agent>();
const latencies = new Map<string, number[]>();
const failures = new Map<string, Map<number | string, number>>();
/** The calls that hash a password (sign-ups and logins): when each was sent and answered. */
const HASHING_STEPS = new Set(['register', 'login']);
const hashingCalls: Array<{ sent: number; answered: number }> = [];

function record(step: string, ms: number) {
  const list = latencies.get(step) ?? [];
  list.push(ms);
  latencies.set(step, list);
}
function fail(step: string, status: number | string) {
  const byStatus = failures.get(step) ?? new Map<number | string, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  failures.set(step, byStatus);
}

function call(
  base: string,
  step: string,
  method: string,
  url: string,
  options: { from?: string; token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string>; expect?: number[] } = {},
): Promise<TAnswer> {
  const from = options.from ?? '127.0.0.1';
  let agent = agents.get(from);
  if (!agent) agents.set(from, (agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress: from } as never)));
  const body = options.json !== undefined ? Buffer.from(JSON.stringify(options.json)) : options.body;
  const headers: Record<string, string> = {
    ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(body ? { 'content-length': String(body.length) } : {}),
    ...options.headers,
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(url, base), { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const took = performance.now() - started;
        const text = Buffer.concat(chunks);
        let parsed: unknown = text;
        if ((res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(text.toString('utf8'));
        const status = res.statusCode ?? 0;
        const expected = options.expect ?? [200, 201];
        record(step, took);
        if (HASHING_STEPS.has(step)) hashingCalls.push({ sent: started, answered: started + took });
        if (!expected.includes(status)) {
          fail(step, status);
          reject(new Error(`${step}: ${method} ${url} answered ${status} ${text.toString('utf8').slice(0, 300)}`));
          return;
        }
        resolve({ status, body: parsed, headers: res.headers });
      });
    });
    req.on('error', (error) => {
      fail(step, (error as NodeJS.ErrnoException).code ?? 'network');
      reject(error);
    });
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(label: string, check: () => Promise<T | undefined>, timeoutMs = 120_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${label} not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// The platform: portal processes, workers, and with two instances one port in front of them.

/** Spreads requests over the portals, one after the other, as a load balancer does. */
async function roundRobin(targets: number[]) {
  const port = await freePort();
  let next = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createHttpServer((req, res) => {
    const target = targets[next++ % targets.length]!;
    const upstream = httpRequest(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function platform(databaseUrl: string, smtpUrl: string) {
  const s3 = ON_S3 ? await startS3Server() : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cohort-'));
  // A Redis database of the run's own, emptied first, so no earlier run's queues or limits count.
  const redisUrl = `${REDIS_URL.replace(/\/\d*$/, '')}/${Math.floor(Math.random() * 14) + 1}`;
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SMTP_URL: smtpUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'cohort-secret-cohort-secret-cohort-secret',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    ...(INSTANCES > 1 ? { TRUST_PROXY: '127.0.0.1' } : {}),
    ...(s3 ? { STORAGE_URL: await createTestBucket(s3.endpoint) } : {}),
  };
  const portals: Array<{ port: number; child: ReturnType<typeof startProcess> }> = [];
  for (let i = 0; i < INSTANCES; i += 1) {
    const port = await freePort();
    const child = startProcess('dist/server/index.js', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    portals.push({ port, child });
    // The first one migrates and creates the administrator before the next starts.
    await waitForOk(`http://127.0.0.1:${port}/readyz`, performance.now(), 90_000);
  }
  const workers = Array.from({ length: INSTANCES }, () => startProcess('dist/workers/index.js', env));
  const front = INSTANCES > 1 ? await roundRobin(portals.map((portal) => portal.port)) : undefined;
  const base = `http://127.0.0.1:${front?.port ?? portals[0]!.port}`;
  return {
    base,
    portalPids: portals.map((portal) => portal.child.pid!),
    workerPids: workers.map((worker) => worker.pid!),
    async stop() {
      await front?.close();
      await Promise.all([...portals.map((portal) => stopProcess(portal.child)), ...workers.map(stopProcess)]);
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The course the cohort takes: a short training video, a two-question test.

async function prepareCourse(base: string, sql: postgres.Sql) {
  const admin = await call(base, 'admin login', 'POST', '/api/user/login', { json: ADMIN });
  const token = admin.body.accessToken as string;
  const [course] = await sql<{ id: string }[]>`
    insert into courses (title, description, duration, price, category, subjects, is_active)
    values ('Cohort Basic Safety', 'Personal survival, fire fighting, first aid.', '5 days', 4500, 'STCW', '["Personal survival"]'::jsonb, true)
    returning id`;
  const clipDir = mkdtempSync(path.join(tmpdir(), 'cohort-clip-'));
  const clip = await readFile(await makeClip(clipDir, 'drill.mp4', { width: 640, height: 360, seconds: CLIP_SECONDS, audio: true }));
  rmSync(clipDir, { recursive: true, force: true });
  const upload = form([
    { name: 'courseId', value: course!.id },
    { name: 'title', value: 'Abandon ship drill' },
    { name: 'trainingVideo', file: clip, filename: 'drill.mp4', type: 'video/mp4' },
  ]);
  await call(base, 'admin upload', 'POST', '/api/trainingVideo', { token, body: upload.payload, headers: upload.headers });
  await until('the training video ready', async () => {
    const [row] = await sql<{ status: string }[]>`select v.status from training_videos v join training_video_sets s on s.id = v.set_id where s.course_id = ${course!.id}`;
    return row?.status === 'ready' ? true : undefined;
  });
  const test = await call(base, 'admin create test', 'POST', '/api/test', {
    token,
    json: { courseId: course!.id, title: 'Cohort Basic Safety', passMark: 50, questions: QUESTIONS },
  });
  await call(base, 'admin publish test', 'POST', `/api/test/published/${test.body.data._id}`, { token });
  return { courseId: course!.id, adminToken: token };
}

// ---------------------------------------------------------------------------------------------
// The administrator: works the lists while the cohort runs.

function adminAtWork(base: string, token: string) {
  let working = true;
  let approvedUsers = 0;
  let acceptedEnrolments = 0;
  const loop = (async () => {
    while (working) {
      // A refused call is counted in the report's table; the administrator carries on.
      try {
        const users = await call(base, 'admin: unapproved users page', 'GET', '/api/user/getUnapprovedUsers?page=1&pageSize=50', { token });
        for (const user of users.body as Array<{ _id: string }>) {
          await call(base, 'admin: approve user', 'POST', `/api/user/approve-user/${user._id}`, { token });
          approvedUsers += 1;
        }
        const requests = await call(base, 'admin: enrolment requests page', 'GET', '/api/userCourses/inactive?page=1&pageSize=50', { token });
        for (const request of requests.body.data as Array<{ _id: string; status?: string }>) {
          await call(base, 'admin: accept enrolment', 'PUT', `/api/userCourses/activate/${request._id}`, { token });
          acceptedEnrolments += 1;
        }
      } catch {
        // Tried again on the next round.
      }
      await sleep(300);
    }
  })();
  return {
    async stop() {
      working = false;
      await loop;
      return { approvedUsers, acceptedEnrolments };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One learner, start to finish.

type TMailbox = Awaited<ReturnType<typeof startSmtpServer>>;

async function learnerJourney(base: string, smtp: TMailbox, index: number, courseId: string) {
  const from = `127.0.0.${2 + (index % 200)}`;
  const email = `cohort-${index}-${Date.now().toString(36)}@sea.example`;
  const password = `Anchor-Watch-${index}!`;
  await call(base, 'register', 'POST', '/api/user/register', {
    from,
    json: { tittle: 'Mr', firstName: 'Cohort', lastName: `Learner ${index}`, mobile: '9876543210', email, password },
  });
  const mail = await smtp.waitFor(email, 60_000);
  const otp = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!otp) throw new Error(`no code in the mail to ${email}`);
  await call(base, 'verify otp', 'POST', '/api/user/verify-otp', { from, json: { email, otp } });
  const login = await call(base, 'login', 'POST', '/api/user/login', { from, json: { email, password } });
  const token = login.body.accessToken as string;

  // Approved by the administrator, then the enrolment request, then its acceptance.
  await until('enrolment request accepted by an approved account', async () => {
    const sent = await call(base, 'request enrolment', 'POST', '/api/userCourses', { from, token, json: { courseId }, expect: [201, 403, 409] });
    return sent.status === 201 || sent.status === 409 ? true : undefined;
  }, 180_000, 1000);
  await until('enrolment accepted', async () => {
    const own = await call(base, 'own courses', 'GET', '/api/userCourses/user', { from, token });
    return (own.body.data as Array<{ courseId: unknown; isActive: boolean }>).some((item) => item.isActive) ? true : undefined;
  }, 180_000, 1000);

  // Watch the training: playback starts (the server's clock opens), a heartbeat a second, then submit it.
  const player = await call(base, 'training player', 'GET', `/api/trainingVideo/${courseId}`, { from, token });
  const setId = player.body.data._id as string;
  for (const video of player.body.data.trainingVideo as Array<{ _id: string }>) {
    await call(base, 'heartbeat', 'POST', '/trpc/training.heartbeat', { from, token, json: { videoId: video._id, from: 0, to: 0, position: 0 } });
    for (let second = 1; second <= CLIP_SECONDS; second += 1) {
      await sleep(1000);
      await call(base, 'heartbeat', 'POST', '/trpc/training.heartbeat', { from, token, json: { videoId: video._id, from: second - 1, to: second, position: second } });
    }
  }
  await call(base, 'submit training', 'POST', `/api/videoWatchedUser/${setId}`, { from, token });

  // The test: opened, answered right, passed.
  const opened = await call(base, 'open test', 'GET', `/api/test/${courseId}`, { from, token });
  const test = opened.body.data[0] as { _id: string; questions: Array<{ _id: string; questionText: string }> };
  const answers = test.questions.map((question) => ({
    questionId: question._id,
    selectedAnswer: QUESTIONS.find((known) => known.questionText === question.questionText)!.correctAnswer,
  }));
  const submitted = await call(base, 'submit test', 'POST', '/api/submitTest', { from, token, json: { testId: test._id, courseId, answers, timeTaken: 60 } });
  if (submitted.body.data.percentage !== 100) throw new Error(`learner ${index} scored ${submitted.body.data.percentage}`);

  // The certificate: its PDF once the worker has rendered it.
  const certificate = await until('certificate ready', async () => {
    const answer = await call(base, 'certificate', 'GET', `/api/certificate/${courseId}`, { from, token, expect: [200, 404] });
    return answer.status === 200 ? (answer.body.data.pdfPath.filename as string) : undefined;
  }, 120_000, 500);
  const pdf = await call(base, 'certificate PDF', 'GET', `/certificates/${certificate}`, { from });
  if (!(pdf.body as Buffer).subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('the certificate is not a PDF');
  return { email };
}

async function pool<T>(count: number, width: number, work: (index: number) => Promise<T>) {
  const results: Array<PromiseSettledResult<T>> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index).then(
          (value) => ({ status: 'fulfilled', value }) as const,
          (reason: unknown) => ({ status: 'rejected', reason }) as const,
        );
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------

async function run(databaseUrl: string) {
  const bareArgon2 = await bareArgon2Rate();
  const smtp = await startSmtpServer();
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const system = await platform(databaseUrl, smtp.url);
  let admin: ReturnType<typeof adminAtWork> | undefined;
  try {
    const { courseId, adminToken } = await prepareCourse(system.base, sql);
    // The portal and workers keep the priority they started with.
    if (CLIENT_NICE) os.setPriority(CLIENT_NICE);
    latencies.clear();
    hashingCalls.length = 0;
    admin = adminAtWork(system.base, adminToken);

    // /healthz probed through the run, against its idle figure.
    const idleHealth: number[] = [];
    for (let i = 0; i < 50; i += 1) idleHealth.push((await timed(() => fetch(`${system.base}/healthz`).then((r) => r.arrayBuffer()))));
    let probing = true;
    const busyHealth: number[] = [];
    const probe = (async () => {
      while (probing) {
        await timed(() => fetch(`${system.base}/healthz`).then((r) => r.arrayBuffer())).then(
          (took) => busyHealth.push(took),
          () => fail('/healthz probe', 'network'),
        );
        await sleep(100);
      }
    })();

    const cpuBefore = cpuSnapshot(system);
    const started = performance.now();
    const results = await pool(LEARNERS, CONCURRENCY, (index) => learnerJourney(system.base, smtp, index, courseId));
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuUsedSince(cpuBefore, cpuSnapshot(system));
    probing = false;
    await probe;
    const adminWork = await admin.stop();

    const finished = results.filter((result) => result.status === 'fulfilled').length;
    const problems = results.flatMap((result) => (result.status === 'rejected' ? [String((result.reason as Error).message ?? result.reason)] : []));

    // The books: every acknowledged write present exactly once.
    const [counts] = await sql<Array<Record<string, string>>>`
      select
        (select count(*) from users where email like 'cohort-%@sea.example') as users,
        (select count(*) from users where email like 'cohort-%@sea.example' and verified_at is not null and approved_at is not null) as approved_users,
        (select count(*) from enrolments e join users u on u.id = e.user_id where u.email like 'cohort-%@sea.example') as enrolments,
        (select count(*) from enrolments e join users u on u.id = e.user_id where u.email like 'cohort-%@sea.example' and e.status = 'approved' and e.training_submitted_at is not null) as trained,
        (select count(*) from test_attempts a join users u on u.id = a.user_id where u.email like 'cohort-%@sea.example' and a.submitted_at is not null) as attempts,
        (select count(*) from certificates c join users u on u.id = c.user_id where u.email like 'cohort-%@sea.example') as certificates,
        (select count(*) from certificates c join users u on u.id = c.user_id where u.email like 'cohort-%@sea.example' and c.status = 'ready') as certificates_ready,
        (select count(distinct number) from certificates) as distinct_numbers,
        (select count(*) from certificates) as all_certificates`;
    const mailsPerLearner = new Map<string, number>();
    for (const mail of smtp.received) for (const to of mail.to) if (to.startsWith('cohort-')) mailsPerLearner.set(to, (mailsPerLearner.get(to) ?? 0) + 1);

    printReport({ seconds, finished, problems, counts: counts!, adminWork, mailsPerLearner, idleHealth, busyHealth, cpu, bareArgon2 });
  } finally {
    await admin?.stop();
    await system.stop();
    await smtp.close();
    await sql.end();
  }
}

/**
 * Hashes a second this machine does with the portal's argon2 parameters, one at a time on each
 * core, before anything of the cohort runs: the bound for sign-ups and logins a second. `measured`
 * is by the clock, so it shares the cores with whatever else the machine is doing; `allCores` is
 * by the CPU time the hashes took, what the cores would do with nothing else running. (The hashes
 * run on libuv's thread pool, four threads unless UV_THREADPOOL_SIZE says more.)
 */
async function bareArgon2Rate(seconds = 5) {
  const cores = os.availableParallelism();
  let hashes = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (performance.now() < until) {
        await hash('the bare argon2 bound', ARGON2_OPTIONS);
        hashes += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return {
    measured: hashes / ((performance.now() - started) / 1000),
    allCores: (hashes / ((cpu.user + cpu.system) / 1e6)) * cores,
  };
}

/**
 * Sign-ups and logins answered a second while at least as many of them as the machine has cores
 * were waiting for their answer: what the portal made of the demand that could keep every core
 * hashing.
 */
function hashingRateUnderDemand(calls: Array<{ sent: number; answered: number }>, width: number) {
  const events = calls
    .flatMap((call) => [
      { at: call.sent, change: 1 },
      { at: call.answered, change: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.change - b.change);
  let waiting = 0;
  let since = 0;
  let demandMs = 0;
  let answered = 0;
  for (const event of events) {
    if (waiting >= width) {
      demandMs += event.at - since;
      if (event.change < 0) answered += 1;
    }
    since = event.at;
    waiting += event.change;
  }
  return { seconds: demandMs / 1000, answered, perSecond: demandMs > 0 ? answered / (demandMs / 1000) : Number.NaN };
}

/** CPU seconds a process has used, its threads at a lowered priority apart (Linux /proc; zero elsewhere). */
function processCpu(pid: number) {
  try {
    const lowPriority = threadStats(pid)
      .filter((thread) => thread.nice > 0)
      .reduce((total, thread) => total + thread.cpuSeconds, 0);
    return { total: processStat(pid).cpuSeconds, lowPriority };
  } catch {
    return { total: 0, lowPriority: 0 };
  }
}

function cpuSnapshot(system: { portalPids: number[]; workerPids: number[] }) {
  const cores = os.cpus();
  const sum = (pick: (times: os.CpuInfo['times']) => number) => cores.reduce((total, core) => total + pick(core.times), 0) / 1000;
  const portals = system.portalPids.map(processCpu);
  const client = process.cpuUsage();
  return {
    machine: sum((t) => t.user + t.nice + t.sys + t.irq),
    idle: sum((t) => t.idle),
    portal: portals.reduce((total, portal) => total + portal.total, 0),
    hashing: portals.reduce((total, portal) => total + portal.lowPriority, 0),
    worker: system.workerPids.map(processCpu).reduce((total, worker) => total + worker.total, 0),
    client: (client.user + client.system) / 1e6,
  };
}

function cpuUsedSince(before: ReturnType<typeof cpuSnapshot>, after: ReturnType<typeof cpuSnapshot>) {
  const used = Object.fromEntries(Object.keys(before).map((key) => [key, after[key as keyof typeof after] - before[key as keyof typeof before]])) as typeof before;
  return { ...used, busyShare: used.machine / (used.machine + used.idle), rest: used.machine - used.portal - used.worker - used.client };
}

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function printReport(report: {
  seconds: number;
  finished: number;
  problems: string[];
  counts: Record<string, string>;
  adminWork: { approvedUsers: number; acceptedEnrolments: number };
  mailsPerLearner: Map<string, number>;
  idleHealth: number[];
  busyHealth: number[];
  cpu: ReturnType<typeof cpuUsedSince>;
  bareArgon2: Awaited<ReturnType<typeof bareArgon2Rate>>;
}) {
  const f = (value: number) => value.toFixed(value < 10 ? 1 : 0);
  const cores = os.availableParallelism();
  const hashing = hashingRateUnderDemand(hashingCalls, cores);
  const { cpu } = report;
  const lines = [
    `# Cohort: ${LEARNERS} learners, ${CONCURRENCY} at once, ${INSTANCES} portal process(es) and ${INSTANCES} worker(s), files ${ON_S3 ? 'in an S3 bucket (s3rver)' : 'on the local disk'}`,
    '',
    `${new Date().toISOString()} · ${cores} cores · load ${LOAD_BEFORE} before, ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} after${CLIENT_NICE ? ` · the learners' client at nice ${CLIENT_NICE}` : ''}`,
    `${report.finished} of ${LEARNERS} learners finished in ${report.seconds.toFixed(0)} s`,
    '',
    '| step | calls | p50 ms | p95 ms | p99 ms | refused or failed |',
    '|---|---|---|---|---|---|',
  ];
  for (const [step, values] of latencies) {
    const failed = failures.get(step);
    lines.push(
      `| ${step} | ${values.length} | ${f(percentile(values, 50))} | ${f(percentile(values, 95))} | ${f(percentile(values, 99))} | ${failed ? [...failed].map(([status, count]) => `${count}× ${status}`).join(', ') : 0} |`,
    );
  }
  const fiveHundreds = [...failures.values()].flatMap((byStatus) => [...byStatus].filter(([status]) => typeof status === 'number' && status >= 500).map(([, count]) => count));
  const mails = [...report.mailsPerLearner.values()];
  lines.push(
    '',
    `5xx answers: ${fiveHundreds.reduce((sum, count) => sum + count, 0)}`,
    `/healthz p99: idle ${f(percentile(report.idleHealth, 99))} ms, during the run ${f(percentile(report.busyHealth, 99))} ms (${(percentile(report.busyHealth, 99) / percentile(report.idleHealth, 99)).toFixed(1)} × idle)`,
    `Sign-ups and logins: ${hashingCalls.length} answered; while at least ${cores} were waiting (${hashing.seconds.toFixed(0)} s), ${hashing.perSecond.toFixed(1)} a second`,
    `Bare argon2 on ${cores} cores: ${report.bareArgon2.measured.toFixed(1)} hashes a second measured before the run, ${report.bareArgon2.allCores.toFixed(0)} by CPU time (every core free): ratio ${(hashing.perSecond / report.bareArgon2.measured).toFixed(2)} of the measured bound, ${(hashing.perSecond / report.bareArgon2.allCores).toFixed(2)} of the free one`,
    `CPU during the run: ${(cpu.busyShare * 100).toFixed(0)} % of the machine (${cpu.machine.toFixed(0)} core-seconds): portal ${cpu.portal.toFixed(0)} (of which low-priority threads ${cpu.hashing.toFixed(0)}), worker ${cpu.worker.toFixed(0)}, this client ${cpu.client.toFixed(0)}, the rest (PostgreSQL, Redis, anything else on the machine) ${cpu.rest.toFixed(0)}`,
    '',
    '## Reconciliation',
    `- accounts: ${report.counts.users} (approved and verified ${report.counts.approved_users}); the administrator approved ${report.adminWork.approvedUsers}`,
    `- enrolments: ${report.counts.enrolments} (accepted with the training submitted ${report.counts.trained}); accepted by the administrator ${report.adminWork.acceptedEnrolments}`,
    `- submitted attempts: ${report.counts.attempts}; certificates ${report.counts.certificates} (PDF ready ${report.counts.certificates_ready}); numbers distinct: ${report.counts.distinct_numbers} of ${report.counts.all_certificates}`,
    `- mails per learner: ${mails.length ? `${Math.min(...mails)}–${Math.max(...mails)}` : 'none'} (code, enrolment accepted, certificate ready)`,
  );
  if (report.problems.length) lines.push('', '## Learners who did not finish', ...[...new Set(report.problems)].slice(0, 20).map((problem) => `- ${problem}`));
  process.stdout.write(`${lines.join('\n')}\n`);
}

const LOAD_BEFORE = os.loadavg().map((l) => l.toFixed(1)).join(' ');

if (!BENCH_DATABASE_URL) {
  process.stderr.write('The cohort needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL\n');
  process.exit(1);
}
await withFreshPostgres(BENCH_DATABASE_URL, async (url) => {
  // The portal migrates the new database on its first start.
  await run(url);
});

/*
 * `npm run bench:cohort`: a cohort of virtual learners goes through the whole course, as the
 * spec's client calls the REST paths (section 7), against the built portal and its workers on
 * PostgreSQL and Redis, while an administrator works the approval lists:
 * register → verify from the real mail → log in → approved → enrol → accepted → watch (heartbeats)
 * → submit the training → open and pass the test → fetch the certificate's PDF → verify it from the
 * link in the certificate's mail, as an employer would.
 * Then the books are balanced: every acknowledged write is in the database exactly once.
 *
 *   npm run bench:cohort -- [--learners 1000] [--concurrency 50] [--instances 1|2] [--s3] [--client-nice 10] [--cpu-prof DIR]
 *
 * (COHORT_LEARNERS and COHORT_CONCURRENCY in the environment set the first two as well.) Without
 * --instances the cohort runs twice, each time on a new database: with one portal process and one
 * worker, then with two portal processes and two workers behind one port (Node's cluster module,
 * bench/cohort-cluster.ts: the portals share the listening socket and take connections in turn).
 * With --s3 their files live in a bucket of an S3-compatible server (s3rver) instead of one disk.
 * The virtual learners run in this process, on the same cores as the portal, which real learners'
 * devices do not; --client-nice lowers this process's priority once the portal and workers have
 * started at the normal one, so the learners take less of the portal's cores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fork, spawn } from 'node:child_process';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { ARGON2_OPTIONS } from '../src/server/lib/passwords.ts';
import { ENUMERATION_FLOOR_MS } from '../src/server/modules/auth/auth.service.ts';
import { makeClip } from '../src/testing/media.ts';
import { processStat, threadStats } from '../src/testing/proc-stat.ts';
import { form } from '../src/testing/multipart.ts';
import { startSmtpServer, type TReceivedMail } from '../src/testing/smtp-server.ts';
import { createTestBucket, startS3Server } from '../src/testing/storage.ts';
import type { TPhase, TProbeCommand, TProbeResult } from './health-probe.ts';
import { BENCH_DATABASE_URL, freePort, percentile, ROOT, startBareFastify, startProcess, stopProcess, waitForOk, withFreshPostgres } from './support.ts';
import { staffSignIn } from '../src/testing/staff-sign-in.ts';

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const LEARNERS = argument('learners', Number(process.env.COHORT_LEARNERS ?? 1000));
const CONCURRENCY = argument('concurrency', Number(process.env.COHORT_CONCURRENCY ?? 50));
/** The configurations run, one after the other: portal processes (and as many workers). */
const CONFIGURATIONS = process.argv.includes('--instances') ? [argument('instances', 1)] : [1, 2];
const ON_S3 = process.argv.includes('--s3');
const CLIENT_NICE = argument('client-nice', 0);
/** --cpu-prof DIR: every portal and worker writes a V8 CPU profile there as it stops (node --cpu-prof). */
const PROFILE_DIR = process.argv.includes('--cpu-prof') ? path.resolve(process.argv[process.argv.indexOf('--cpu-prof') + 1]!) : undefined;
const NODE_FLAGS = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];

/** A built entry point in a process of its own, as startProcess starts it, with NODE_FLAGS. */
function startEntry(entry: string, env: Record<string, string>) {
  return NODE_FLAGS.length
    ? spawn(process.execPath, [...NODE_FLAGS, entry], { cwd: ROOT, env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env }, stdio: ['ignore', 'ignore', 'inherit'] })
    : startProcess(entry, env);
}
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
const HASHING_STEPS = new Set(['register', 'login', 'admin login']);
/**
 * Calls held to a floor on purpose (the answer to a sign-up code comes no sooner than 300 ms, so
 * its time says nothing about the address): the aim applies to the time beyond the floor.
 */
const FLOORED_STEPS = new Map([['verify otp', ENUMERATION_FLOOR_MS]]);
const beyondFloor = (step: string, ms: number) => ms - (FLOORED_STEPS.get(step) ?? 0);
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

/**
 * Several portals behind one port: bench/cohort-cluster.ts forks them through Node's cluster
 * module and says their process ids once every one listens.
 */
async function clusterOfPortals(count: number, env: Record<string, string>) {
  const primary = spawn(process.execPath, ['--import', 'tsx', 'bench/cohort-cluster.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env, PORTAL_PROCESSES: String(count), PORTAL_NODE_FLAGS: NODE_FLAGS.join(' ') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const pids = await new Promise<number[]>((resolve, reject) => {
    primary.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((text) => text.startsWith('{"portals"'));
      if (line) resolve((JSON.parse(line) as { portals: number[] }).portals);
    });
    primary.once('exit', (code) => reject(new Error(`the cluster of portals ended (${code}) before listening`)));
  });
  primary.stdout.resume();
  return { primary, pids };
}

async function platform(instances: number, databaseUrl: string, smtpUrl: string) {
  const s3 = ON_S3 ? await startS3Server() : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-cohort-'));
  // A Redis database of the run's own, emptied first, so no earlier run's queues or limits count.
  const redisUrl = `${REDIS_URL.replace(/\/\d*$/, '')}/${Math.floor(Math.random() * 14) + 1}`;
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1] ?? 0);
  redis.disconnect();
  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SMTP_URL: smtpUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'cohort-secret-cohort-secret-cohort-secret',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(s3 ? { STORAGE_URL: await createTestBucket(s3.endpoint) } : {}),
  };
  const base = `http://127.0.0.1:${port}`;
  let stopPortals: () => Promise<void>;
  let portalPids: number[];
  let primaryPid: number | undefined;
  if (instances > 1) {
    const cluster = await clusterOfPortals(instances, env);
    portalPids = cluster.pids;
    primaryPid = cluster.primary.pid;
    stopPortals = () => stopProcess(cluster.primary);
  } else {
    const child = startEntry('dist/server/index.js', env);
    portalPids = [child.pid!];
    stopPortals = () => stopProcess(child);
  }
  await waitForOk(`${base}/readyz`, performance.now(), 90_000);
  const workers = Array.from({ length: instances }, () => startEntry('dist/workers/index.js', env));
  return {
    base,
    instances,
    portalPids,
    primaryPid,
    workerPids: workers.map((worker) => worker.pid!),
    redisPid,
    async stop() {
      await Promise.all([stopPortals(), ...workers.map(stopProcess)]);
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The course the cohort takes: a short training video, a two-question test.

async function prepareCourse(base: string, sql: postgres.Sql) {
  const token = (await staffSignIn(base, ADMIN)).accessToken;
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

/** The administrator signs in again this often, before the access token (15 minutes) runs out, as the screens' refresh does. */
const ADMIN_SIGN_IN_EVERY_MS = 10 * 60_000;

function adminAtWork(base: string, token: string) {
  let working = true;
  let approvedUsers = 0;
  let acceptedEnrolments = 0;
  let signedInAt = performance.now();
  const loop = (async () => {
    while (working) {
      // A refused call is counted in the report's table; the administrator carries on.
      try {
        if (performance.now() - signedInAt > ADMIN_SIGN_IN_EVERY_MS) {
          token = (await staffSignIn(base, ADMIN)).accessToken;
          signedInAt = performance.now();
        }
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
  const registered = performance.now();
  const mail = await mailMatching(smtp, email, (text) => /\b\d{6}\b/.test(text), MAIL_WAIT_MS);
  wait('sign-up code mail after the sign-up', performance.now() - registered);
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
  const passed = performance.now();
  const certificate = await until('certificate ready', async () => {
    const answer = await call(base, 'certificate', 'GET', `/api/certificate/${courseId}`, { from, token, expect: [200, 404] });
    return answer.status === 200 ? (answer.body.data.pdfPath.filename as string) : undefined;
  }, 120_000, 500);
  wait('certificate PDF ready after the test', performance.now() - passed);
  const pdf = await call(base, 'certificate PDF', 'GET', `/certificates/${certificate}`, { from });
  if (!(pdf.body as Buffer).subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('the certificate is not a PDF');

  // Verified by whoever the learner gives the link in the certificate's mail to (from another address).
  const fetched = performance.now();
  const ready = await mailMatching(smtp, email, (text) => text.includes('/verify/'), MAIL_WAIT_MS);
  wait('certificate mail after its PDF', performance.now() - fetched);
  const link = new URL(/https?:\/\/\S+\/verify\/\S+/.exec(ready.text)![0]);
  const input = { number: decodeURIComponent(link.pathname.slice('/verify/'.length)), code: link.searchParams.get('code') ?? undefined };
  const verified = await call(base, 'verify certificate', 'GET', `/trpc/certificates.verify?input=${encodeURIComponent(JSON.stringify(input))}`, {
    from: `127.0.1.${1 + (index % 200)}`,
  });
  const verdict = verified.body.result.data as { detail: string; state: string };
  if (verdict.detail !== 'full' || verdict.state !== 'valid') throw new Error(`learner ${index}'s certificate verified as ${verdict.detail} ${verdict.state}`);
  verifiedCertificates += 1;
  return { email };
}

let verifiedCertificates = 0;

/** How long a mail may take to arrive before the learner gives up (the worker runs at nice 10 on shared cores). */
const MAIL_WAIT_MS = 300_000;

/** The learners' waits for the worker's work (not calls): how long after the call its result came. */
const waits = new Map<string, number[]>();
function wait(what: string, ms: number) {
  waits.set(what, [...(waits.get(what) ?? []), ms]);
}

/** The mails received so far by recipient (indexed as they come, not searched through on every look). */
const mailsTo = new Map<string, TReceivedMail[]>();
let mailsIndexed = 0;
function mailsFor(smtp: TMailbox, to: string) {
  for (; mailsIndexed < smtp.received.length; mailsIndexed += 1) {
    const mail = smtp.received[mailsIndexed]!;
    for (const recipient of mail.to) mailsTo.set(recipient, [...(mailsTo.get(recipient) ?? []), mail]);
  }
  return mailsTo.get(to) ?? [];
}

/** The first mail to `to` whose text passes `test`, waiting for it up to `timeoutMs`. */
async function mailMatching(smtp: TMailbox, to: string, test: (text: string) => boolean, timeoutMs: number) {
  return until(`a mail to ${to}`, async () => mailsFor(smtp, to).find((mail) => test(mail.text)), timeoutMs, 250);
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

type TPlatform = Awaited<ReturnType<typeof platform>>;

/** One configuration: a new database, its portal processes and workers, the cohort, the books. */
async function run(instances: number, databaseUrl: string) {
  latencies.clear();
  failures.clear();
  hashingCalls.length = 0;
  verifiedCertificates = 0;
  waits.clear();
  mailsTo.clear();
  mailsIndexed = 0;
  for (const agent of agents.values()) agent.destroy();
  agents.clear();

  const loadBefore = os.loadavg();
  const bareArgon2 = await bareArgon2Rate();
  const smtp = await startSmtpServer();
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const system = await platform(instances, databaseUrl, smtp.url);
  let admin: ReturnType<typeof adminAtWork> | undefined;
  let prober: ReturnType<typeof healthProber> | undefined;
  let controlProber: ReturnType<typeof healthProber> | undefined;
  const control = await startBareFastify();
  try {
    const { courseId, adminToken } = await prepareCourse(system.base, sql);
    // The portal and workers keep the priority they started with.
    if (CLIENT_NICE) os.setPriority(CLIENT_NICE);
    latencies.clear();
    failures.clear();
    hashingCalls.length = 0;

    // /healthz idle (the portals started, the course ready, nobody at work yet), then probed through
    // the run, from a process of its own (bench/health-probe.ts).
    prober = healthProber(`${system.base}/healthz`);
    controlProber = healthProber(`${control.base}/api/site-config`);
    await sleep(IDLE_PROBE_SECONDS * 1000);
    prober.phase('busy');
    controlProber.phase('busy');
    admin = adminAtWork(system.base, adminToken);

    const meter = await cpuMeter(system, sql, prober.pid);
    const started = performance.now();
    const results = await pool(LEARNERS, CONCURRENCY, (index) => learnerJourney(system.base, smtp, index, courseId));
    const seconds = (performance.now() - started) / 1000;
    const cpu = await meter.stop();
    const loadAfter = os.loadavg();
    const { idle: idleHealth, busy: busyHealth, errors: probeErrors } = await prober.stop();
    for (let i = 0; i < probeErrors; i += 1) fail('/healthz probe', 'network');
    const { idle: idleControl, busy: busyControl } = await controlProber.stop();
    const adminWork = await admin.stop();

    const finished = results.filter((result) => result.status === 'fulfilled').length;
    const problems = results.flatMap((result) => (result.status === 'rejected' ? [String((result.reason as Error).message ?? result.reason)] : []));
    const books = await reconcile(sql, smtp, adminWork);
    const report = { instances, seconds, finished, problems, books, idleHealth, busyHealth, idleControl, busyControl, cpu, bareArgon2, loadBefore, loadAfter };
    printReport(report);
    return summarize(report);
  } finally {
    prober?.end();
    controlProber?.end();
    await stopProcess(control.process);
    await admin?.stop();
    await system.stop();
    await smtp.close();
    await sql.end();
  }
}

/**
 * The books: every acknowledged write present exactly once, every mail delivered. The last
 * mails' delivery is recorded just after they arrive, so the count is read again for a few
 * seconds until it settles.
 */
async function reconcile(sql: postgres.Sql, smtp: TMailbox, adminWork: { approvedUsers: number; acceptedEnrolments: number }) {
  const read = async () => {
    const [counts] = await sql<Array<Record<string, string>>>`
      with cohort as (select id from users where email like 'cohort-%@sea.example')
      select
        (select count(*) from cohort) as users,
        (select count(*) from users u join cohort using (id) where u.verified_at is not null and u.approved_at is not null) as approved_users,
        (select count(*) from enrolments e join cohort c on c.id = e.user_id) as enrolments,
        (select count(*) from enrolments e join cohort c on c.id = e.user_id where e.status = 'approved' and e.training_submitted_at is not null) as trained,
        (select count(*) from watch_progress w join cohort c on c.id = w.user_id where w.completed_at is not null) as watched,
        (select count(*) from watch_refusals r join cohort c on c.id = r.user_id) as refusals,
        (select count(*) from test_attempts a join cohort c on c.id = a.user_id where a.submitted_at is not null) as attempts,
        (select count(*) from certificates x join cohort c on c.id = x.user_id) as certificates,
        (select count(*) from certificates x join cohort c on c.id = x.user_id where x.status = 'ready') as certificates_ready,
        (select count(distinct number) from certificates) as distinct_numbers,
        (select count(*) from certificates) as all_certificates,
        (select count(*) from mails where "to" like 'cohort-%@sea.example') as mails_queued,
        (select count(*) from mails where "to" like 'cohort-%@sea.example' and sent_at is not null) as mails_sent`;
    return Object.fromEntries(Object.entries(counts!).map(([key, value]) => [key, Number(value)]));
  };
  let counts = await read();
  for (let tries = 0; tries < 20 && counts.mails_sent !== MAILS_PER_LEARNER * LEARNERS; tries += 1) {
    await sleep(500);
    counts = await read();
  }
  const mailsPerLearner = new Map<string, number>();
  for (const mail of smtp.received) for (const to of mail.to) if (to.startsWith('cohort-')) mailsPerLearner.set(to, (mailsPerLearner.get(to) ?? 0) + 1);
  const perLearner = [...mailsPerLearner.values()];
  // A mail delivered twice carries the same Message-ID (derived from its row) both times.
  const byMessageId = new Map<string, TReceivedMail[]>();
  for (const mail of smtp.received) {
    const id = mail.headers['message-id'] ?? '';
    byMessageId.set(id, [...(byMessageId.get(id) ?? []), mail]);
  }
  const deliveredTwice = [...byMessageId].filter(([, copies]) => copies.length > 1).map(([id, copies]) => `${copies.length}× ${id} to ${copies[0]!.to.join(', ')}: ${copies[0]!.subject}`);
  const n = LEARNERS;
  const checks: Array<[label: string, seen: number | string, expected: number | string]> = [
    ['accounts', counts.users!, n],
    ['accounts verified and approved', counts.approved_users!, n],
    ['approvals made by the administrator', adminWork.approvedUsers, n],
    ['enrolments', counts.enrolments!, n],
    ['enrolments accepted by the administrator', adminWork.acceptedEnrolments, n],
    ['enrolments accepted with the training submitted', counts.trained!, n],
    ['training parts watched to the end', counts.watched!, n],
    ['watch reports refused', counts.refusals!, 0],
    ['test attempts submitted', counts.attempts!, n],
    ['certificates', counts.certificates!, n],
    ['certificates with their PDF ready', counts.certificates_ready!, n],
    ['certificate numbers distinct', counts.distinct_numbers!, counts.all_certificates!],
    ['certificates verified from the mail\'s link', verifiedCertificates, n],
    ['mails queued', counts.mails_queued!, MAILS_PER_LEARNER * n],
    ['mails delivered (recorded)', counts.mails_sent!, MAILS_PER_LEARNER * n],
    ['mails received', perLearner.reduce((sum, count) => sum + count, 0), MAILS_PER_LEARNER * n],
    ['learners with other than ' + MAILS_PER_LEARNER + ' mails', perLearner.filter((count) => count !== MAILS_PER_LEARNER).length + (n - perLearner.length), 0],
    ['mails delivered more than once (same Message-ID)', deliveredTwice.length, 0],
  ];
  return { checks, exact: checks.every(([, seen, expected]) => seen === expected), deliveredTwice };
}

/** Mails each learner gets: the sign-up code, the enrolment accepted, the certificate ready. */
const MAILS_PER_LEARNER = 3;

/** Seconds of /healthz probes before the run, with nobody at work: the idle figure. */
const IDLE_PROBE_SECONDS = 30;
/** One probe at a time, one started every this many milliseconds, idle and during the run alike. */
const PROBE_EVERY_MS = 50;

/** The health checker (bench/health-probe.ts) started on `url`: name its phase, then stop it for its times. */
function healthProber(url: string) {
  const child = fork(path.join(import.meta.dirname, 'health-probe.ts'), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const send = (command: TProbeCommand) => child.send(command);
  const result = new Promise<TProbeResult>((resolve, reject) => {
    child.once('message', (message: TProbeResult) => resolve(message));
    child.once('exit', (code) => reject(new Error(`the health probe exited ${code} without its times`)));
  });
  // A run that fails ends the probe (end) without asking for its times: that rejection is nobody's.
  result.catch(() => {});
  send({ url, everyMs: PROBE_EVERY_MS });
  return {
    pid: child.pid!,
    phase: (phase: TPhase) => send({ phase }),
    stop: () => {
      send({ stop: true });
      return result;
    },
    /** Ends the probe at once (a run that failed); nothing once it has stopped. */
    end: () => child.kill(),
  };
}

/**
 * CPU seconds taken during the run, by process: each portal (and the cluster's primary), each
 * worker, this process (the learners and the administrator), PostgreSQL (the backends serving
 * this run's database, and the server's own processes every database shares), Redis, and the
 * whole machine. Read from /proc every two seconds, so a backend that comes and goes is counted.
 */
async function cpuMeter(system: TPlatform, sql: postgres.Sql, probePid: number) {
  const [{ database }] = (await sql`select current_database() as database`) as unknown as [{ database: string }];
  type TGroup = { name: string; pids: (activity: Array<{ pid: number; datname: string | null }>) => number[] };
  const groups: TGroup[] = [
    ...system.portalPids.map((pid, i) => ({ name: `portal ${i + 1}`, pids: () => [pid] })),
    ...(system.primaryPid ? [{ name: 'cluster primary (hands out connections)', pids: () => [system.primaryPid!] }] : []),
    ...system.workerPids.map((pid, i) => ({ name: `worker ${i + 1}`, pids: () => [pid] })),
    { name: 'PostgreSQL backends of this database', pids: (activity) => activity.filter((row) => row.datname === database).map((row) => row.pid) },
    { name: 'PostgreSQL shared processes (WAL, checkpoints; every database)', pids: (activity) => activity.filter((row) => row.datname === null).map((row) => row.pid) },
    { name: 'Redis (shared with anything else using it)', pids: () => (system.redisPid ? [system.redisPid] : []) },
    { name: 'learners\' and administrator\'s client (this process)', pids: () => [process.pid] },
    { name: 'health probe (its own process)', pids: () => [probePid] },
  ];
  const tally = new Map<string, Map<number, { first: number; last: number }>>(groups.map((group) => [group.name, new Map()]));
  let initial = true;
  const sample = async () => {
    const activity = await sql<Array<{ pid: number; datname: string | null }>>`select pid, datname from pg_stat_activity`.catch(() => []);
    for (const group of groups) {
      const byPid = tally.get(group.name)!;
      for (const pid of group.pids(activity)) {
        let cpuSeconds: number;
        try {
          cpuSeconds = processStat(pid).cpuSeconds;
        } catch {
          continue;
        }
        const seen = byPid.get(pid);
        if (seen) seen.last = cpuSeconds;
        else byPid.set(pid, { first: initial ? cpuSeconds : 0, last: cpuSeconds });
      }
    }
    initial = false;
  };
  const machine = () => {
    const cores = os.cpus();
    const sum = (pick: (times: os.CpuInfo['times']) => number) => cores.reduce((total, core) => total + pick(core.times), 0) / 1000;
    return { busy: sum((t) => t.user + t.nice + t.sys + t.irq), idle: sum((t) => t.idle) };
  };
  const hashingThreads = () => system.portalPids.map(processCpu).reduce((total, portal) => total + portal.lowPriority, 0);
  // With --cpu-prof, the statements PostgreSQL is running for this database are sampled as well
  // (every 250 ms): what the database spends its time on, without pg_stat_statements.
  const statements = new Map<string, number>();
  let sampledStatements = 0;
  const sampleStatements = async () => {
    const active = await sql<Array<{ query: string; wait: string | null }>>`
      select query, wait_event_type || ':' || wait_event as wait from pg_stat_activity
      where datname = ${database} and state = 'active' and pid <> pg_backend_pid()`.catch(() => []);
    sampledStatements += 1;
    for (const row of active) {
      const key = `${row.query.replace(/\s+/g, ' ').slice(0, 160)}${row.wait ? ` [${row.wait}]` : ''}`;
      statements.set(key, (statements.get(key) ?? 0) + 1);
    }
  };
  const machineBefore = machine();
  const hashingBefore = hashingThreads();
  await sample();
  const timer = setInterval(() => void sample(), 2000);
  const statementTimer = PROFILE_DIR ? setInterval(() => void sampleStatements(), 250) : undefined;
  return {
    async stop() {
      clearInterval(timer);
      clearInterval(statementTimer);
      await sample();
      const machineAfter = machine();
      const busy = machineAfter.busy - machineBefore.busy;
      const idle = machineAfter.idle - machineBefore.idle;
      const rows = groups.map((group) => {
        const byPid = [...tally.get(group.name)!.values()];
        return { name: group.name, processes: byPid.length, seconds: byPid.reduce((total, { first, last }) => total + last - first, 0) };
      });
      const named = rows.reduce((total, row) => total + row.seconds, 0);
      const busiestStatements = [...statements].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([statement, seen]) => ({ statement, share: seen / Math.max(1, sampledStatements) }));
      return { rows, machine: busy, busyShare: busy / (busy + idle), rest: busy - named, hashing: hashingThreads() - hashingBefore, busiestStatements };
    },
  };
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

type TRunReport = {
  instances: number;
  seconds: number;
  finished: number;
  problems: string[];
  books: Awaited<ReturnType<typeof reconcile>>;
  idleHealth: number[];
  busyHealth: number[];
  idleControl: number[];
  busyControl: number[];
  cpu: Awaited<ReturnType<Awaited<ReturnType<typeof cpuMeter>>['stop']>>;
  bareArgon2: Awaited<ReturnType<typeof bareArgon2Rate>>;
  loadBefore: number[];
  loadAfter: number[];
};

/** Argon2 operations one learner's journey costs: the sign-up's hash and the login's check. */
const HASHES_PER_LEARNER = 2;
/** The aims: calls that hash nothing answer within this at p95, and /healthz p99 within this multiple of idle. */
const P95_AIM_MS = 200;
const HEALTH_AIM = 2;

const f = (value: number) => value.toFixed(value < 10 ? 1 : 0);
const loadText = (load: number[]) => load.map((l) => l.toFixed(1)).join(' ');

/** What the comparison of the configurations needs of a run. */
function summarize(report: TRunReport) {
  const errors = [...failures.values()].flatMap((byStatus) => [...byStatus.values()]).reduce((sum, count) => sum + count, 0);
  const quiet = [...latencies].filter(([step]) => !HASHING_STEPS.has(step)).map(([step, values]) => ({ step, p95: percentile(values, 95) }));
  const slowest = quiet.reduce((worst, step) => (beyondFloor(step.step, step.p95) > beyondFloor(worst.step, worst.p95) ? step : worst), { step: '-', p95: 0 });
  const idle = percentile(report.idleHealth, 99);
  const busy = percentile(report.busyHealth, 99);
  return {
    instances: report.instances,
    learnersPerSecond: report.finished / report.seconds,
    boundMeasured: report.bareArgon2.measured / HASHES_PER_LEARNER,
    boundFree: report.bareArgon2.allCores / HASHES_PER_LEARNER,
    seconds: report.seconds,
    errors: errors + (LEARNERS - report.finished),
    exact: report.books.exact,
    slowest,
    overAim: quiet.filter((step) => beyondFloor(step.step, step.p95) >= P95_AIM_MS),
    health: { idle, busy, ratio: busy / idle },
    control: { idle: percentile(report.idleControl, 99), busy: percentile(report.busyControl, 99) },
    registerP95: percentile(latencies.get('register') ?? [], 95),
    loginP95: percentile(latencies.get('login') ?? [], 95),
    loadBefore: report.loadBefore,
    loadAfter: report.loadAfter,
    cpu: report.cpu,
  };
}

function printReport(report: TRunReport) {
  const cores = os.availableParallelism();
  const hashing = hashingRateUnderDemand(hashingCalls, cores);
  const { cpu } = report;
  const lines = [
    `# Cohort: ${LEARNERS} learners, ${CONCURRENCY} at once, ${report.instances} portal process(es) and ${report.instances} worker(s)${report.instances > 1 ? ' behind one port (cluster)' : ''}, files ${ON_S3 ? 'in an S3 bucket (s3rver)' : 'on the local disk'}`,
    '',
    `${new Date().toISOString()} · ${cores} cores · load ${loadText(report.loadBefore)} before, ${loadText(report.loadAfter)} after${CLIENT_NICE ? ` · the learners' client at nice ${CLIENT_NICE}` : ''}`,
    `${report.finished} of ${LEARNERS} learners finished in ${report.seconds.toFixed(0)} s: ${(report.finished / report.seconds).toFixed(2)} learners a second`,
    '',
    '| step | hashes | calls | p50 ms | p95 ms | p99 ms | refused or failed |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [step, values] of latencies) {
    const failed = failures.get(step);
    const p95 = percentile(values, 95);
    const floor = FLOORED_STEPS.get(step);
    const over = beyondFloor(step, p95) >= P95_AIM_MS ? `, over ${P95_AIM_MS} ms${floor ? ' beyond it' : ''}` : '';
    const mark = HASHING_STEPS.has(step) ? 'argon2' : `no${floor ? ` (held to ≥ ${floor} ms on purpose${over})` : over ? ` (${over.slice(2)})` : ''}`;
    lines.push(
      `| ${step} | ${mark} | ${values.length} | ${f(percentile(values, 50))} | ${f(p95)} | ${f(percentile(values, 99))} | ${failed ? [...failed].map(([status, count]) => `${count}× ${status}`).join(', ') : 0} |`,
    );
  }
  const fiveHundreds = [...failures.values()].flatMap((byStatus) => [...byStatus].filter(([status]) => typeof status === 'number' && status >= 500).map(([, count]) => count));
  const idle = percentile(report.idleHealth, 99);
  const busy = percentile(report.busyHealth, 99);
  lines.push(
    '',
    `5xx answers: ${fiveHundreds.reduce((sum, count) => sum + count, 0)}`,
    `/healthz p99 (a probe every ${PROBE_EVERY_MS} ms from a process of its own): idle ${f(idle)} ms (p50 ${f(percentile(report.idleHealth, 50))}, ${report.idleHealth.length} probes), during the run ${f(busy)} ms (p50 ${f(percentile(report.busyHealth, 50))}, ${report.busyHealth.length} probes): ${(busy / idle).toFixed(1)} × idle`,
    `Control, a bare Fastify hello-world on the same cores probed the same way: p99 idle ${f(percentile(report.idleControl, 99))} ms, during the run ${f(percentile(report.busyControl, 99))} ms: ${(percentile(report.busyControl, 99) / percentile(report.idleControl, 99)).toFixed(1)} × idle`,
    `Sign-ups and logins: ${hashingCalls.length} answered; while at least ${cores} were waiting (${hashing.seconds.toFixed(0)} s), ${hashing.perSecond.toFixed(1)} a second`,
    `Bare argon2 on ${cores} cores: ${report.bareArgon2.measured.toFixed(1)} hashes a second measured before the run, ${report.bareArgon2.allCores.toFixed(0)} by CPU time (every core free): ratio ${(hashing.perSecond / report.bareArgon2.measured).toFixed(2)} of the measured bound, ${(hashing.perSecond / report.bareArgon2.allCores).toFixed(2)} of the free one`,
    `Learners a second against the argon2 bound (${HASHES_PER_LEARNER} hashes a learner): ${(report.finished / report.seconds).toFixed(2)} against ${(report.bareArgon2.measured / HASHES_PER_LEARNER).toFixed(1)} (measured bound, ratio ${(report.finished / report.seconds / (report.bareArgon2.measured / HASHES_PER_LEARNER)).toFixed(2)}) and ${(report.bareArgon2.allCores / HASHES_PER_LEARNER).toFixed(0)} (free cores, ratio ${(report.finished / report.seconds / (report.bareArgon2.allCores / HASHES_PER_LEARNER)).toFixed(2)})`,
    '',
    `## CPU during the run: ${(cpu.busyShare * 100).toFixed(0)} % of the machine, ${cpu.machine.toFixed(0)} core-seconds in ${report.seconds.toFixed(0)} s`,
    '',
    '| process | count | CPU s | share of one core |',
    '|---|---|---|---|',
    ...cpu.rows.map((row) => `| ${row.name} | ${row.processes} | ${row.seconds.toFixed(1)} | ${((row.seconds / report.seconds) * 100).toFixed(0)} % |`),
    `| (of the portals: password-hashing threads at nice 19) | | ${cpu.hashing.toFixed(1)} | ${((cpu.hashing / report.seconds) * 100).toFixed(0)} % |`,
    `| anything else on the machine | | ${cpu.rest.toFixed(1)} | ${((cpu.rest / report.seconds) * 100).toFixed(0)} % |`,
    ...(cpu.busiestStatements.length
      ? [
          '',
          '## Statements PostgreSQL was running for the run (sampled every 250 ms; running at once on average)',
          '',
          ...cpu.busiestStatements.map(({ statement, share }) => `- ${share.toFixed(2)} × \`${statement}\``),
        ]
      : []),
    '',
    `## Reconciliation: ${report.books.exact ? 'exact' : 'NOT exact'}`,
    '',
    '| count | seen | expected |',
    '|---|---|---|',
    ...report.books.checks.map(([label, seen, expected]) => `| ${label} | ${seen} | ${expected}${seen === expected ? '' : ' ✗'} |`),
  );
  if (report.books.deliveredTwice.length) lines.push('', '## Mails delivered more than once', ...report.books.deliveredTwice.map((line) => `- ${line}`));
  lines.push(
    '',
    '## Waits for the worker (from the call to its result, not calls)',
    '',
    '| wait | count | p50 ms | p95 ms | max ms |',
    '|---|---|---|---|---|',
    ...[...waits].map(([what, values]) => `| ${what} | ${values.length} | ${f(percentile(values, 50))} | ${f(percentile(values, 95))} | ${f(Math.max(...values))} |`),
  );
  if (report.problems.length) lines.push('', '## Learners who did not finish', ...[...new Set(report.problems)].slice(0, 20).map((problem) => `- ${problem}`));
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

function printComparison(runs: Array<ReturnType<typeof summarize>>) {
  const lines = [
    `# The ${LEARNERS}-learner loop, configuration by configuration`,
    '',
    `| portals + workers | load before → after | learners a second | argon2 bound, learners a second (measured; free cores) | errors | books | slowest call that hashes nothing, p95 | register / login p95 | /healthz p99 idle → run | control (bare Fastify) p99 idle → run |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (run) =>
        `| ${run.instances} + ${run.instances} | ${loadText(run.loadBefore)} → ${loadText(run.loadAfter)} | ${run.learnersPerSecond.toFixed(2)} (${run.seconds.toFixed(0)} s) | ${run.boundMeasured.toFixed(1)}; ${run.boundFree.toFixed(0)} | ${run.errors} | ${run.exact ? 'exact' : 'NOT exact'} | ${run.slowest.step} ${f(run.slowest.p95)} ms | ${f(run.registerP95)} / ${f(run.loginP95)} ms | ${f(run.health.idle)} → ${f(run.health.busy)} ms (${run.health.ratio.toFixed(1)} ×) | ${f(run.control.idle)} → ${f(run.control.busy)} ms (${(run.control.busy / run.control.idle).toFixed(1)} ×) |`,
    ),
    '',
    `Aims: 0 errors, exact books, every call that hashes nothing under ${P95_AIM_MS} ms at p95, /healthz p99 within ${HEALTH_AIM} × idle.`,
    ...runs.map((run) => {
      const missed = [
        ...(run.errors ? [`${run.errors} errors`] : []),
        ...(run.exact ? [] : ['books not exact']),
        ...(run.overAim.length ? [`p95 over ${P95_AIM_MS} ms: ${run.overAim.map((step) => `${step.step} ${f(step.p95)} ms`).join(', ')}`] : []),
        ...(run.health.ratio > HEALTH_AIM ? [`/healthz p99 ${run.health.ratio.toFixed(1)} × idle`] : []),
      ];
      return `- ${run.instances} + ${run.instances}: ${missed.length ? `missed: ${missed.join('; ')}` : 'every aim met'}`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (!BENCH_DATABASE_URL) {
  process.stderr.write('The cohort needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL\n');
  process.exit(1);
}
const runs: Array<ReturnType<typeof summarize>> = [];
for (const instances of CONFIGURATIONS) {
  // The portal migrates each new database on its first start.
  runs.push(await withFreshPostgres(BENCH_DATABASE_URL, (url) => run(instances, url)));
}
printComparison(runs);

import { staffSignIn } from '../src/testing/staff-sign-in.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import type { DatabaseHandle } from '../src/server/db/client.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../src/testing/factories.ts';

/*
 * The portal and its worker as production runs them: the built entry points in processes of
 * their own, on the run's PostgreSQL, and a Redis of their own (so a FLUSHALL touches nothing else).
 */

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN = { email: 'faults-admin@academy.example', password: 'Harbour-Pilot-2026!' };

/** Fault scripts need the real services: PostgreSQL shared by two processes, and redis-server to run. */
export function faultsCanRun(): { databaseUrl: string } | undefined {
  const databaseUrl = inject('databaseUrl');
  const redisServer = spawnSync('redis-server', ['--version']).status === 0;
  return databaseUrl && redisServer ? { databaseUrl } : undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns something other than undefined or false. */
export async function eventually<T>(label: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${label}: not within ${timeoutMs} ms`);
    await sleep(150);
  }
}

export type TProcess = { child: ChildProcess; exited: Promise<number | null>; log: () => string };

/** Starts dist/server (the portal) or dist/workers (a worker); built by `npm test` before the tests run. */
export function startBuilt(entry: 'server' | 'workers', env: Record<string, string>): TProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', entry, 'index.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    // Its own process group: a kill -9 reaches the ffmpeg it started too, as when a machine dies.
    detached: true,
  });
  let log = '';
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, log: () => log };
}

/** kill -9 on the process and everything it started. */
export function killHard(process_: TProcess) {
  if (process_.child.pid) process.kill(-process_.child.pid, 'SIGKILL');
}

/**
 * SIGSTOP on the process and everything it started: frozen, it can neither finish what it is doing
 * nor renew its job locks, and it cannot tell it was stopped. `thaw` lets it go on.
 */
export function freeze(process_: TProcess) {
  if (process_.child.pid) process.kill(-process_.child.pid, 'SIGSTOP');
}

export function thaw(process_: TProcess) {
  if (process_.child.pid) process.kill(-process_.child.pid, 'SIGCONT');
}

export async function stopGently(process_: TProcess) {
  if (process_.child.exitCode !== null || process_.child.signalCode !== null) return;
  process_.child.kill('SIGTERM');
  await process_.exited;
}

/**
 * Starts the portal on a free port. Ready means this process said it listens and answers /readyz:
 * another program on the machine may take the port between `freePort` and the portal's listen, and
 * would answer in its place (the portal, refused the port, starts again on another).
 */
export async function startPortal(env: Record<string, string>): Promise<TProcess & { base: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const portal = startBuilt('server', {
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: 'faults-secret-faults-secret-faults-secret',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    });
    const base = `http://127.0.0.1:${port}`;
    const outcome = await eventually(`the portal on ${base}`, async () => {
      if (portal.child.exitCode !== null) return 'exited';
      return portal.log().includes('portal listening') && (await fetch(`${base}/readyz`)).ok ? 'ready' : undefined;
    }, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; it said:\n${portal.log().slice(-2000)}`);
    });
    if (outcome === 'ready') return { ...portal, base };
    if (attempt === 3 || !portal.log().includes('EADDRINUSE')) throw new Error(`the portal on ${base} exited; it said:\n${portal.log().slice(-2000)}`);
  }
}

/**
 * A Redis of the test's own, keeping nothing on disk. Ready when the server on the port says it is
 * this process: a FLUSHALL must never reach another test's Redis that took the port first.
 */
export async function startRedis() {
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 1; !child; attempt += 1) {
    port = await freePort();
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const outcome = await eventually('redis-server', async () => {
      if (started.exitCode !== null) return 'exited';
      return spawnSync('redis-cli', ['-p', String(port), 'info', 'server']).stdout?.toString().includes(`process_id:${started.pid}\r`) ? 'ready' : undefined;
    }, 10_000);
    if (outcome === 'ready') child = started;
    else if (attempt === 3) throw new Error(`redis-server did not start on port ${port}`);
  }
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    flushAll: () => spawnSync('redis-cli', ['-p', String(port), 'flushall']).stdout.toString().trim(),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The BullMQ keys of the portal's queue (default prefix `bull`, queue `jobs`). */
export const queueKey = (suffix: string) => `bull:jobs:${suffix}`;

/**
 * Calls `listener` the moment a job of the portal's queue is moved to active, from a keyspace event
 * of the test's own Redis: pushed by Redis while the worker is still reading the job it fetched, so
 * a job that runs for a tenth of a second can still be caught at its start.
 */
export async function onJobActive(redisUrl: string, listener: () => void): Promise<{ close: () => Promise<void> }> {
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  await subscriber.config('SET', 'notify-keyspace-events', 'Kl');
  subscriber.on('message', (_channel: string, event: string) => {
    if (event === 'lpush') listener();
  });
  await subscriber.subscribe(`__keyspace@0__:${queueKey('active')}`);
  return {
    close: async () => {
      await subscriber.quit();
    },
  };
}

/** What the fault scripts that start processes keep, to stop and remove them after the file. */
export type TStarted = { running: TProcess[]; cleanups: Array<() => Promise<unknown> | unknown> };

/** A portal and its workers on a Redis of their own, sharing a data folder as one machine would. */
export async function startPlatform(databaseUrl: string, started: TStarted, extra: Record<string, string> = {}) {
  const redis = await startRedis();
  started.cleanups.push(redis.stop);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-faults-jobs-'));
  started.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, DATA_DIR: dataDir, ...extra };
  const portal = await startPortal(env);
  started.running.push(portal);
  const worker = () => {
    const process_ = startBuilt('workers', { ...env, JWT_SECRET: 'faults-secret-faults-secret-faults-secret' });
    started.running.push(process_);
    return process_;
  };
  return { redis, dataDir, portal, worker };
}

/**
 * A TCP hop in front of PostgreSQL that can go down as the server does in a restart: every open
 * connection cut and new ones refused, until it comes back.
 */
export async function startOutageProxy(target: URL): Promise<{ url: string; down: () => Promise<void>; up: () => Promise<void>; close: () => Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      }).listen(port, '127.0.0.1', () => resolve());
    });
  const down = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  await listen();
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), down, up: listen, close: down };
}

/** An answer's JSON, read loosely as any outside client reads it (fields are checked by the tests' expectations). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TAnswer = Record<string, any>;

export async function json(response: Response) {
  const text = await response.text();
  try {
    return JSON.parse(text) as TAnswer;
  } catch {
    return { text } as TAnswer;
  }
}

/** Authorization and JSON headers for a REST call. */
export const authed = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/**
 * A published one-question test on a new course, and a learner who finished its training, signed
 * in with the test open: what a submission needs. `answer` passes it.
 */
export async function learnerBeforeTheTest(base: string, db: DatabaseHandle['db']) {
  const adminToken = await adminLogin(base);
  const course = await createCourse(db);
  const learner = await createUser(db, { approvedAt: new Date() });
  await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', trainingSubmittedAt: new Date() });
  const created = await json(
    await fetch(`${base}/api/test`, {
      method: 'POST',
      headers: authed(adminToken),
      body: JSON.stringify({
        courseId: course.id,
        title: course.title,
        passMark: 50,
        questions: [{ questionText: 'Which side is port?', options: ['Left', 'Right', 'Bow', 'Stern'], correctAnswer: 'Left' }],
      }),
    }),
  );
  await fetch(`${base}/api/test/published/${created.data._id}`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } });
  const token = await login(base, learner.email, TEST_PASSWORD);
  const opened = await json(await fetch(`${base}/api/test/${course.id}`, { headers: authed(token) }));
  const test = opened.data[0];
  const answer = { testId: test._id as string, courseId: course.id, answers: [{ questionId: test.questions[0]._id as string, selectedAnswer: 'Left' }], timeTaken: 60 };
  return { adminToken, course, learner, token, answer };
}

/** The administrator's access token, signed in as a client of the spec's REST login does: the password, then the app's code (set up at the first sign-in). */
export async function adminLogin(base: string): Promise<string> {
  return (await staffSignIn(base, ADMIN)).accessToken;
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = await json(response);
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${JSON.stringify(body)}`);
  return body.accessToken as string;
}

/**
 * A request whose body goes out in two halves: the first now, the rest when `finish` is called.
 * It stays in flight in between, as an upload on a slow link does.
 */
export function slowRequest(url: string, init: { method: string; headers: Record<string, string>; body: Buffer }) {
  const half = Math.floor(init.body.length / 2);
  let finish!: () => void;
  const answer = new Promise<{ status: number; body: TAnswer }>((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: { ...init.headers, 'content-length': String(init.body.length) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: TAnswer;
        try {
          body = JSON.parse(text);
        } catch {
          body = { text };
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.write(init.body.subarray(0, half));
    finish = () => req.end(init.body.subarray(half));
  });
  return { answer, finish: () => finish() };
}

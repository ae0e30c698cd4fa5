import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';

export const ROOT = path.resolve(import.meta.dirname, '..');

export type TBenchRow = { figure: string; value: string; note?: string };
export type TBenchmark = { name: string; run(): Promise<TBenchRow[]> };

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a built entry point in its own process, as production runs it: at its own log level
 * (info, a line per request), its log lines (stdout) dropped.
 */
export function startProcess(entry: string, env: Record<string, string | undefined>): ChildProcess {
  return spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Bare Fastify (bench/hello-world.mjs) in a process of its own, answering: the baseline the portal
 * is compared with, and the control beside it (what the machine does to any server).
 */
export async function startBareFastify(env: Record<string, string> = {}) {
  const port = await freePort();
  const child = startProcess('bench/hello-world.mjs', { ...env, PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${base}/api/site-config`, performance.now());
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { base, process: child };
}

/** Polls until the URL answers 200; returns the milliseconds since `since`. */
export async function waitForOk(url: string, since: number, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    const ok = await fetch(url)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return performance.now() - since;
    if (performance.now() - since > timeoutMs) throw new Error(`${url} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Requests per second over `seconds` with `connections` keep-alive connections. */
export async function throughput(url: string, options: { seconds?: number; connections?: number; headers?: Record<string, string> } = {}) {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 8,
    headers: options.headers,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: result.requests.average, p99Ms: result.latency.p99, total: result.requests.total };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

/** The PostgreSQL server benchmarks use (a fresh database is made on it for each run), if any. */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** Runs `work` against a new, empty database on the server at `base`, dropped afterwards. */
export async function withFreshPostgres<T>(base: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `portal_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

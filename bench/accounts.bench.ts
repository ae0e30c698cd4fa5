import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BENCH_DATABASE_URL,
  freePort,
  ms,
  percentile,
  startProcess,
  stopProcess,
  waitForOk,
  withFreshPostgres,
  type TBenchmark,
  type TBenchRow,
} from './support.ts';

const ADMIN = { email: 'bench-admin@academy.example', password: 'Harbour-Pilot-2026' };

async function postLogin(base: string, body: { email: string; password: string }) {
  const started = performance.now();
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

/** Sends `count` logins at once from a child process; answers their statuses. */
async function stormFromAnotherProcess(base: string, body: { email: string; password: string }, count: number) {
  const script = `
    const body = JSON.stringify(${JSON.stringify(body)});
    const send = () => fetch('${base}/api/user/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      .then(async (res) => { await res.arrayBuffer(); return res.status; });
    const statuses = await Promise.all(Array.from({ length: ${count} }, send));
    process.stdout.write(JSON.stringify(statuses));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  await new Promise((resolve) => child.on('exit', resolve));
  return (JSON.parse(out) as number[]).map((status) => ({ status }));
}

async function measure(env: Record<string, string>): Promise<TBenchRow[]> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = startProcess('dist/server/index.js', {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  try {
    await waitForOk(`${base}/readyz`, performance.now());
    const rows: TBenchRow[] = [];

    // Successful logins one after another: argon2id verification plus two token writes.
    await postLogin(base, ADMIN);
    const logins: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const { status, ms: took } = await postLogin(base, ADMIN);
      if (status !== 200) throw new Error(`login answered ${status}`);
      logins.push(took);
    }
    rows.push({
      figure: 'Login at the server (POST /api/user/login, median)',
      value: ms(percentile(logins, 50)),
      note: `p90 ${ms(percentile(logins, 90))}; argon2id m=19456 KiB t=2 p=1; 30 logins`,
    });

    // A storm of wrong passwords for one account, sent from another process so that making the
    // fifty requests does not slow this process's /healthz polling.
    let storming = true;
    const health: number[] = [];
    const poll = (async () => {
      while (storming) {
        const started = performance.now();
        await fetch(`${base}/healthz`).then((res) => res.arrayBuffer());
        health.push(performance.now() - started);
      }
    })();
    const storm = await stormFromAnotherProcess(base, { email: ADMIN.email, password: 'wrong-password' }, 50);
    storming = false;
    await poll;
    const count = (match: (status: number) => boolean) => storm.filter((r) => match(r.status)).length;
    rows.push({
      figure: 'Storm of 50 concurrent wrong logins',
      value: `${count((s) => s === 429)} × 429, ${count((s) => s === 401)} × 401, ${count((s) => s >= 500)} × 5xx`,
    });
    rows.push({
      figure: '/healthz p99 during the storm',
      value: ms(percentile(health, 99)),
      note: `${health.length} requests; aim under 50 ms`,
    });
    return rows;
  } finally {
    await stopProcess(child);
  }
}

export const accountsBenchmark: TBenchmark = {
  name: 'Accounts',
  async run() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-accounts-'));
    try {
      if (BENCH_DATABASE_URL) {
        return await withFreshPostgres(BENCH_DATABASE_URL, (url) => measure({ DATA_DIR: dataDir, DATABASE_URL: url }));
      }
      return await measure({ DATA_DIR: dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

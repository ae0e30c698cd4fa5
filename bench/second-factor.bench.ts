import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { parseEnv } from '../src/server/env.ts';
import { createLogger } from '../src/server/lib/logger.ts';
import { createRuntime } from '../src/server/runtime.ts';
import { createUser, TEST_PASSWORD } from '../src/testing/factories.ts';
import { freshTestCodeFor } from '../src/testing/second-factor.ts';
import { ms, percentile, type TBenchmark, type TBenchRow } from './support.ts';

/**
 * Sign-in with a second factor beside a password-only one, on a test portal (embedded PGlite, the
 * app listening on loopback, requests over HTTP from the same process): many sign-ins one after
 * another through the spec's REST login. Password only: a learner. Second factor: a member of
 * staff, password then a 6-digit code (POST /api/user/login/second-factor). Each member of staff
 * signs in once, so no code is refused as replayed.
 */
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 120);

type TAnswer = { refreshToken?: string; secondFactorRequired?: true; challengeToken?: string };

async function post(base: string, url: string, body: unknown): Promise<{ status: number; json: TAnswer }> {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as TAnswer };
}

export async function measureSecondFactor(): Promise<TBenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-2fa-'));
  const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' });
  const runtime = await createRuntime(env, createLogger(env.LOG_LEVEL), { inMemoryDatabase: true, clientDir: path.join(dataDir, 'no-client') });
  const app = await buildApp(runtime);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const learners = await Promise.all(Array.from({ length: SIGN_INS }, () => createUser(runtime.db, { approvedAt: new Date() })));
    const staff = await Promise.all(Array.from({ length: SIGN_INS }, () => createUser(runtime.db, { role: 'admin', approvedAt: new Date() })));
    // Codes are computed before the clock starts: the figure is the portal's, not the test's.
    const codes = await Promise.all(staff.map((member) => freshTestCodeFor(member.email)));
    // Warm-up: one of each.
    await post(base, '/api/user/login', { email: learners[0]!.email, password: TEST_PASSWORD });

    const passwordOnly: number[] = [];
    for (const learner of learners) {
      const started = performance.now();
      const res = await post(base, '/api/user/login', { email: learner.email, password: TEST_PASSWORD });
      passwordOnly.push(performance.now() - started);
      if (res.status !== 200 || !res.json.refreshToken) throw new Error(`learner login answered ${res.status}`);
    }
    const withFactor: number[] = [];
    const secondStep: number[] = [];
    for (const [index, member] of staff.entries()) {
      const started = performance.now();
      const first = await post(base, '/api/user/login', { email: member.email, password: TEST_PASSWORD });
      if (!first.json.secondFactorRequired) throw new Error('staff login gave no challenge');
      const stepStarted = performance.now();
      const second = await post(base, '/api/user/login/second-factor', { challengeToken: first.json.challengeToken, code: codes[index] });
      const ended = performance.now();
      if (second.status !== 200) throw new Error(`second factor answered ${second.status}: ${JSON.stringify(second.json)}`);
      withFactor.push(ended - started);
      secondStep.push(ended - stepStarted);
    }
    const note = `${SIGN_INS} sign-ins one after another; in-process test portal on PGlite; argon2id m=19456 KiB t=2 p=1`;
    return [
      { figure: 'Sign-in, password only (learner, POST /api/user/login), p95', value: ms(percentile(passwordOnly, 95)), note: `median ${ms(percentile(passwordOnly, 50))}; ${note}` },
      {
        figure: 'Sign-in with a second factor (staff: password, then a TOTP code), p95',
        value: ms(percentile(withFactor, 95)),
        note: `median ${ms(percentile(withFactor, 50))}; the code step alone p95 ${ms(percentile(secondStep, 95))}, median ${ms(percentile(secondStep, 50))}`,
      },
    ];
  } finally {
    await app.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const secondFactorBenchmark: TBenchmark = { name: 'Second factor', run: measureSecondFactor };

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await measureSecondFactor()) process.stdout.write(`${row.figure}: ${row.value} (${row.note ?? ''})\n`);
}

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpServer } from '../src/testing/smtp-server.ts';
import {
  BENCH_DATABASE_URL,
  freePort,
  percentile,
  startProcess,
  stopProcess,
  waitForOk,
  withFreshPostgres,
  type TBenchmark,
  type TBenchRow,
} from './support.ts';

const CLASS_SIZE = 60;
/** The training room's one public address: every learner's request comes from it. */
const ROOM = '127.0.0.1';

type TMailbox = Awaited<ReturnType<typeof startSmtpServer>>;
type TAnswer = { status: number; body: Record<string, unknown> };

/** A client written from the spec (section 7): JSON over HTTP from the room's address. */
function roomClient(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CLASS_SIZE, localAddress: ROOM } as never);
  const statuses: number[] = [];
  return {
    statuses,
    agent,
    post(url: string, json: object): Promise<TAnswer> {
      const payload = Buffer.from(JSON.stringify(json));
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          new URL(`/api${url}`, base),
          { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(payload.length) } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              statuses.push(status);
              resolve({ status, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> });
            });
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
  };
}

/** The code in the newest of `count` mails to `email`, as the learner reads it on their phone. */
async function codeFor(smtp: TMailbox, email: string, count: number): Promise<string> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const found = smtp.received.filter((mail) => mail.to.includes(email));
    const code = found.length >= count ? /\b(\d{6})\b/.exec(found[found.length - 1]!.text)?.[1] : undefined;
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One learner: registers, asks for the code again now and then (every twelfth does), verifies
 * with the code from the mail, logs in and refreshes the token once. Answers when logged in.
 */
async function learner(client: ReturnType<typeof roomClient>, smtp: TMailbox, index: number, run: string) {
  const email = `class-${run}-${index}@sea.example`;
  const password = `Bosun-Whistle-${index}`;
  const expect = (answer: TAnswer, step: string) => {
    if (answer.status >= 300) throw new Error(`${step} answered ${answer.status}: ${String(answer.body.message)}`);
    return answer;
  };
  expect(await client.post('/user/register', { tittle: 'Mr', firstName: 'Cadet', lastName: `No ${index}`, mobile: '9876543210', email, password }), 'register');
  let mails = 1;
  if (index % 12 === 0) {
    expect(await client.post('/user/resend-otp', { email }), 'resend');
    mails += 1;
  }
  const otp = await codeFor(smtp, email, mails);
  expect(await client.post('/user/verify-otp', { email, otp }), 'verify');
  const login = expect(await client.post('/user/login', { email, password }), 'login');
  expect(await client.post('/user/refresh-token', { refreshToken: login.body.refreshToken }), 'refresh');
}

async function measure(env: Record<string, string>): Promise<TBenchRow[]> {
  const smtp = await startSmtpServer();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = startProcess('dist/server/index.js', { ...env, SMTP_URL: smtp.url, PORT: String(port), HOST: '127.0.0.1' });
  try {
    await waitForOk(`${base}/readyz`, performance.now(), 90_000);
    const client = roomClient(base);
    const run = Date.now().toString(36);
    // The whole class starts at once when the instructor says so: the worst case for the room.
    const started = performance.now();
    const done: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: CLASS_SIZE }, async (_, index) => {
        await learner(client, smtp, index, run);
        done.push((performance.now() - started) / 1000);
      }),
    );
    client.agent.destroy();
    const refused = client.statuses.filter((status) => status === 429).length;
    const failed = results.filter((result) => result.status === 'rejected');
    const seconds = (value: number) => `${value.toFixed(1)} s`;
    return [
      {
        figure: `Sign-up of a class of ${CLASS_SIZE} from one address: seconds to all logged in`,
        value: failed.length === 0 ? seconds(Math.max(...done)) : `${done.length} of ${CLASS_SIZE} logged in`,
        note: `aim within 15 min; median learner ${seconds(percentile(done, 50))}; all start at once; register, verify from the mail (every 12th asks again), log in, refresh${failed[0] ? `; first failure: ${(failed[0] as PromiseRejectedResult).reason}` : ''}`,
      },
      {
        figure: `Sign-up of a class of ${CLASS_SIZE} from one address: 429s`,
        value: String(refused),
        note: `aim 0; ${client.statuses.length} requests, ${client.statuses.filter((status) => status >= 400).length} refused in all`,
      },
    ];
  } finally {
    await stopProcess(child);
    await smtp.close();
  }
}

export const classSignUpBenchmark: TBenchmark = {
  name: 'Class sign-up',
  async run() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-class-'));
    try {
      const env = { DATA_DIR: dataDir };
      if (BENCH_DATABASE_URL) return await withFreshPostgres(BENCH_DATABASE_URL, (url) => measure({ ...env, DATABASE_URL: url }));
      return await measure(env);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

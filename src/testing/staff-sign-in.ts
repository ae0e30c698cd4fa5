import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { totpCodeAt } from './second-factor.ts';

/**
 * The authenticator-app secrets set up by the sign-ins below, by e-mail, with the last 30-second
 * step each gave a code for (the portal refuses a step it has seen). Kept in a file: the fault
 * scripts run one file per process against one database, so the app the first file set up is the
 * one the next file signs in with. A stale secret (an earlier run's database) is replaced as the
 * portal asks for the app to be set up again.
 */
const SECRETS_FILE = path.join(tmpdir(), 'maritime-portal-tests', 'staff-app-secrets.json');
type TKept = Record<string, { secret: string; lastStep: number }>;

function readKept(): TKept {
  try {
    return JSON.parse(readFileSync(SECRETS_FILE, 'utf8')) as TKept;
  } catch {
    return {};
  }
}

function keep(email: string, entry: { secret: string; lastStep: number }): void {
  mkdirSync(path.dirname(SECRETS_FILE), { recursive: true });
  writeFileSync(SECRETS_FILE, JSON.stringify({ ...readKept(), [email]: entry }));
}

/** A code of the account's app for a step no earlier sign-in used (waiting for the next step when both near ones are used). */
async function nextCode(email: string, secret: string): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    const last = readKept()[email]?.secret === secret ? readKept()[email]!.lastStep : -Infinity;
    const use = [step, step + 1].find((candidate) => candidate > last);
    if (use !== undefined) {
      keep(email, { secret, lastStep: use });
      return totpCodeAt(secret, use * 30_000 + 1_000);
    }
    await sleep((step + 1) * 30_000 - Date.now() + 50);
  }
}

const secrets = {
  get: (email: string): string | undefined => readKept()[email]?.secret,
};

type TAnswer = {
  accessToken: string;
  refreshToken: string;
  secondFactorRequired?: true;
  challengeToken?: string;
  methods?: string[];
  result?: { data: { secret: string } };
};

async function post(base: string, url: string, body: unknown): Promise<TAnswer> {
  const res = await fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as TAnswer;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * A member of staff signs in through the spec's REST login as a client would: the password, then a
 * code from their authenticator app. The first administrator (ADMIN_EMAIL) has none at first: they
 * set one up as the login screen's enrolment does (auth.enrolTotp, then auth.confirmTotp with its
 * first code), and the bench keeps the secret for the next sign-ins.
 */
export async function staffSignIn(base: string, account: { email: string; password: string }): Promise<{ accessToken: string; refreshToken: string }> {
  const first = await post(base, '/api/user/login', account);
  if (!first.secondFactorRequired) return first;
  if (first.methods?.includes('enrol')) {
    const { result } = await post(base, '/trpc/auth.enrolTotp', { challengeToken: first.challengeToken });
    const secret = result!.data.secret;
    keep(account.email, { secret, lastStep: -1 });
    await post(base, '/trpc/auth.confirmTotp', { challengeToken: first.challengeToken, code: await nextCode(account.email, secret) });
    return staffSignIn(base, account);
  }
  const secret = secrets.get(account.email);
  if (!secret) throw new Error(`no authenticator app is known for ${account.email}`);
  return post(base, '/api/user/login/second-factor', { challengeToken: first.challengeToken, code: await nextCode(account.email, secret) });
}

/** The next code of a member of staff whose app a bench set up (for a sign-in through the browser). */
export function staffCodeFor(email: string): Promise<string> {
  const secret = secrets.get(email);
  if (!secret) throw new Error(`no authenticator app is known for ${email}`);
  return nextCode(email, secret);
}

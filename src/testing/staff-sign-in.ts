import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { totpCodeAt } from './second-factor.ts';

/**
 * The authenticator-app secrets set up by the sign-ins below, by e-mail, with the last 30-second
 * step each gave a code for (the portal refuses a step it has seen) and the recovery codes the
 * set-up answered, not used yet. Kept in a file: the fault scripts run one file per process
 * against one database, so the app the first file set up is the one the next file signs in with.
 * A stale secret (an earlier run's database) is replaced as the portal asks for the app to be set
 * up again.
 */
const SECRETS_FILE = path.join(tmpdir(), 'maritime-portal-tests', 'staff-app-secrets.json');
type TKept = Record<string, { secret: string; lastStep: number; recovery?: string[] }>;

function readKept(): TKept {
  try {
    return JSON.parse(readFileSync(SECRETS_FILE, 'utf8')) as TKept;
  } catch {
    return {};
  }
}

function keep(email: string, entry: TKept[string]): void {
  mkdirSync(path.dirname(SECRETS_FILE), { recursive: true });
  writeFileSync(SECRETS_FILE, JSON.stringify({ ...readKept(), [email]: entry }));
}

/**
 * A code of the account's app for a step no earlier sign-in used. When both near steps are used,
 * a recovery code where one will do (`recovery`), else the next step's code once it comes.
 */
async function nextCode(email: string, secret: string, recovery = false): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    const kept = readKept()[email]?.secret === secret ? readKept()[email] : undefined;
    const use = [step, step + 1].find((candidate) => candidate > (kept?.lastStep ?? -Infinity));
    if (use !== undefined) {
      keep(email, { ...kept, secret, lastStep: use });
      return totpCodeAt(secret, use * 30_000 + 1_000);
    }
    const [code, ...left] = kept?.recovery ?? [];
    if (recovery && kept && code) {
      keep(email, { ...kept, recovery: left });
      return code;
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
  result?: { data: { secret: string; recoveryCodes?: string[] } };
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
    const confirmed = await post(base, '/trpc/auth.confirmTotp', { challengeToken: first.challengeToken, code: await nextCode(account.email, secret) });
    keep(account.email, { ...readKept()[account.email]!, recovery: confirmed.result?.data.recoveryCodes ?? [] });
    return staffSignIn(base, account);
  }
  const secret = secrets.get(account.email);
  if (!secret) throw new Error(`no authenticator app is known for ${account.email}`);
  // The REST step takes a recovery code in the same field: no sign-in waits for the app's next step.
  return post(base, '/api/user/login/second-factor', { challengeToken: first.challengeToken, code: await nextCode(account.email, secret, true) });
}

/** The next code of a member of staff whose app a bench set up (for a sign-in through the browser). */
export function staffCodeFor(email: string): Promise<string> {
  const secret = secrets.get(email);
  if (!secret) throw new Error(`no authenticator app is known for ${email}`);
  return nextCode(email, secret);
}

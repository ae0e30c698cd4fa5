import { freshTotpCode } from '../src/testing/second-factor.ts';

/** The authenticator-app secrets the benches set up, by e-mail (a portal per bench, this process's). */
const secrets = new Map<string, string>();

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
    await post(base, '/trpc/auth.confirmTotp', { challengeToken: first.challengeToken, code: await freshTotpCode(secret) });
    secrets.set(account.email, secret);
    return staffSignIn(base, account);
  }
  const secret = secrets.get(account.email);
  if (!secret) throw new Error(`no authenticator app is known for ${account.email}`);
  return post(base, '/api/user/login/second-factor', { challengeToken: first.challengeToken, code: await freshTotpCode(secret) });
}

/** The next code of a member of staff whose app a bench set up (for a sign-in through the browser). */
export function staffCodeFor(email: string): Promise<string> {
  const secret = secrets.get(email);
  if (!secret) throw new Error(`no authenticator app is known for ${email}`);
  return freshTotpCode(secret);
}

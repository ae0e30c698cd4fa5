import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as OTPAuth from 'otpauth';

/**
 * Staff made by the test factories have an authenticator app whose secret the tests know: derived
 * from the e-mail, so any test (or a bench in another process) can compute the account's codes with
 * the same library the portal checks them with. Nothing here is in the portal's own code.
 */
export function testTotpSecretFor(email: string): string {
  return new OTPAuth.Secret({ buffer: createHash('sha256').update(`test-totp:${email}`).digest().subarray(0, 20).buffer as ArrayBuffer }).base32;
}

/** The code of a secret at a time (ms since the epoch): a clock of the test's choosing. */
export function totpCodeAt(secret: string, atMs: number): string {
  return new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: atMs });
}

const lastStepUsed = new Map<string, number>();

/**
 * A code the portal has not seen yet for this secret: the current step's, or the next step's
 * when this process already used the current one (the portal accepts one step either side and
 * refuses a step it has seen). A third sign-in within one step waits for the next.
 */
export async function freshTotpCode(secret: string, now: () => number = Date.now): Promise<string> {
  for (;;) {
    const step = Math.floor(now() / 30_000);
    const last = lastStepUsed.get(secret) ?? -Infinity;
    const use = [step, step + 1].find((candidate) => candidate > last);
    if (use !== undefined) {
      lastStepUsed.set(secret, use);
      return totpCodeAt(secret, use * 30_000 + 1_000);
    }
    await sleep((step + 1) * 30_000 - now() + 50);
  }
}

/** A staff member's next code, by e-mail (factory-made staff). */
export function freshTestCodeFor(email: string): Promise<string> {
  return freshTotpCode(testTotpSecretFor(email));
}

/** The session a login answered; throws when it asked for a second factor instead. */
export function asSession<A extends object>(answer: A): Exclude<A, { secondFactorRequired: true }> {
  if ('secondFactorRequired' in answer) throw new Error('the login asked for a second factor');
  return answer as Exclude<A, { secondFactorRequired: true }>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the injected answer's JSON, read as each test needs it
type TInjected = { statusCode: number; json(): any };
type TInjector<R extends TInjected> = {
  inject(options: { method: 'POST'; url: string; payload: object; remoteAddress?: string }): Promise<R>;
};

/**
 * The spec's REST login as a member of staff signs in: the password, then a fresh code from
 * their app with the challenge (POST /api/user/login/second-factor). A learner's answer comes
 * back from the first call. Answers the last response.
 */
export async function restSignIn<R extends TInjected>(app: TInjector<R>, email: string, password: string, remoteAddress?: string) {
  const first = await app.inject({ method: 'POST', url: '/api/user/login', payload: { email, password }, ...(remoteAddress ? { remoteAddress } : {}) });
  const body = first.statusCode === 200 ? first.json() : undefined;
  if (!body?.secondFactorRequired) return first;
  return app.inject({
    method: 'POST',
    url: '/api/user/login/second-factor',
    payload: { challengeToken: body.challengeToken, code: await freshTestCodeFor(email) },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** The browser's login over tRPC (auth.login or auth.adminLogin), with the second step when asked. */
export async function browserSignIn<R extends TInjected>(app: TInjector<R>, email: string, password: string, procedure: 'login' | 'adminLogin' = 'login', remoteAddress?: string) {
  const first = await app.inject({ method: 'POST', url: `/trpc/auth.${procedure}`, payload: { email, password }, ...(remoteAddress ? { remoteAddress } : {}) });
  const data = first.statusCode === 200 ? first.json().result?.data : undefined;
  if (!data?.secondFactorRequired) return first;
  return app.inject({
    method: 'POST',
    url: '/trpc/auth.secondFactor',
    payload: { challengeToken: data.challengeToken, code: await freshTestCodeFor(email) },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

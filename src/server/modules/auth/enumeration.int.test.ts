import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../testing/factories.ts';
import { uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { ENUMERATION_FLOOR_MS } from './auth.service.ts';

const TRIES = 50;
const AT_ONCE = 5;
let portal: TestPortal;

beforeAll(async () => {
  portal = await createTestPortal();
  // One unmeasured round, so the first measured calls do not also pay for loading the code paths.
  const [warm] = await unverifiedAccounts(1);
  for (const url of ['/api/user/resend-otp', '/api/user/forgotPasssword']) {
    await timeCalls(url, interleaved([warm!.email], (email) => ({ email })));
  }
  await portal.drainJobs();
});
afterAll(() => portal.close());

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
};

/** Times each call, known and unknown addresses taking turns, a few at a time. */
async function timeCalls(url: string, bodies: Array<{ known: boolean; payload: Record<string, string> }>) {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let start = 0; start < bodies.length; start += AT_ONCE) {
    await Promise.all(
      bodies.slice(start, start + AT_ONCE).map(async ({ known, payload }) => {
        const began = performance.now();
        const res = await portal.app.inject({ method: 'POST', url, payload, remoteAddress: uniqueIp() });
        (known ? times.known : times.unknown).push(performance.now() - began);
        expect(res.statusCode).toBeLessThan(500);
      }),
    );
  }
  return times;
}

async function unverifiedAccounts(n: number) {
  return Promise.all(Array.from({ length: n }, () => createUser(portal.runtime.db, { email: uniqueEmail('enum'), verifiedAt: null })));
}

function interleaved(known: string[], payload: (email: string) => Record<string, string>) {
  return known.flatMap((email) => [
    { known: true, payload: payload(email) },
    { known: false, payload: payload(uniqueEmail('nobody')) },
  ]);
}

function expectSameTiming(times: { known: number[]; unknown: number[] }) {
  expect(times.known).toHaveLength(TRIES);
  expect(times.unknown).toHaveLength(TRIES);
  expect(Math.min(...times.known, ...times.unknown)).toBeGreaterThanOrEqual(ENUMERATION_FLOOR_MS - 1);
  expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(15);
}

describe('whether an e-mail has an account cannot be told from the time an answer takes', () => {
  it('POST /user/resend-otp', async () => {
    const known = (await unverifiedAccounts(TRIES)).map((user) => user.email);
    expectSameTiming(await timeCalls('/api/user/resend-otp', interleaved(known, (email) => ({ email }))));
    await portal.drainJobs();
  });

  it('POST /user/forgotPasssword', async () => {
    const known = (await unverifiedAccounts(TRIES)).map((user) => user.email);
    expectSameTiming(await timeCalls('/api/user/forgotPasssword', interleaved(known, (email) => ({ email }))));
    await portal.drainJobs();
  });

  it('POST /user/verify-otp with a wrong code', async () => {
    const known = (await unverifiedAccounts(TRIES)).map((user) => user.email);
    // Each known account holds a live code, so a wrong try is counted against it.
    await timeCalls('/api/user/resend-otp', known.map((email) => ({ known: true, payload: { email } })));
    expectSameTiming(await timeCalls('/api/user/verify-otp', interleaved(known, (email) => ({ email, otp: '000000' }))));
  });
});

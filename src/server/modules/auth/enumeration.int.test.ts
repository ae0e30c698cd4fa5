import { createUser } from '../../../testing/factories.ts';
import { uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { ENUMERATION_FLOOR_MS } from './auth.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

/** Enough calls of each kind to see every one held to the floor; no statistics are drawn from them. */
const TRIES = 10;
const AT_ONCE = 5;


function interleaved(known: string[], payload: (email: string) => Record<string, string>) {
  return known.flatMap((email) => [
    { known: true, payload: payload(email) },
    { known: false, payload: payload(uniqueEmail('nobody')) },
  ]);
}

/** How long each call took, known and unknown addresses apart, and what each answered. */
type TTimes = { known: number[]; unknown: number[]; answers: { known: Set<string>; unknown: Set<string> } };

/**
 * Every answer, for an address with an account and one without, waited for the floor: the work
 * for a known address (a code issued, a mail queued, a try counted) is hidden inside it. That is
 * the behaviour, and it holds on any machine (a busy one only answers later). Whether this
 * machine's known path fits inside the floor, the medians side by side, is `npm run bench`'s
 * figure, not a test's: under other work its noise is larger than the difference it looks for.
 */
function expectSameAnswerAtTheFloor(times: TTimes) {
  // The same words for both, one answer each.
  expect([...times.answers.known]).toEqual([...times.answers.unknown]);
  expect(times.answers.known.size).toBe(1);
  expect(times.known).toHaveLength(TRIES);
  expect(times.unknown).toHaveLength(TRIES);
  expect(Math.min(...times.known)).toBeGreaterThanOrEqual(ENUMERATION_FLOOR_MS - 1);
  expect(Math.min(...times.unknown)).toBeGreaterThanOrEqual(ENUMERATION_FLOOR_MS - 1);
}

const it = test
  /** Times each call, known and unknown addresses taking turns, a few at a time, and keeps what each answered. */
  .extend('timeCalls', { scope: 'file' }, ({ portal }) => async (url: string, bodies: Array<{ known: boolean; payload: Record<string, string> }>): Promise<TTimes> => {
    const times: TTimes = { known: [], unknown: [], answers: { known: new Set<string>(), unknown: new Set<string>() } };
    for (let start = 0; start < bodies.length; start += AT_ONCE) {
      await Promise.all(
        bodies.slice(start, start + AT_ONCE).map(async ({ known, payload }) => {
          const began = performance.now();
          const res = await portal.app.inject({ method: 'POST', url, payload, remoteAddress: uniqueIp() });
          (known ? times.known : times.unknown).push(performance.now() - began);
          expect(res.statusCode).toBeLessThan(500);
          times.answers[known ? 'known' : 'unknown'].add(`${res.statusCode} ${res.body}`);
        }),
      );
    }
    return times;
  })
  .extend('unverifiedAccounts', { scope: 'file' }, ({ db }) => async (n: number) => {
    return Promise.all(Array.from({ length: n }, () => createUser(db, { email: uniqueEmail('enum'), verifiedAt: null })));
  });

it.beforeAll(async ({ portal, timeCalls, unverifiedAccounts }) => {
  // One unmeasured round, so the first measured calls do not also pay for loading the code paths.
  const [warm] = await unverifiedAccounts(1);
  for (const url of ['/api/user/resend-otp', '/api/user/forgotPasssword']) {
    await timeCalls(url, interleaved([warm!.email], (email) => ({ email })));
  }
  await portal.drainJobs();
});

describe('whether an e-mail has an account cannot be told from the time an answer takes', () => {
  it('POST /user/resend-otp', async ({ portal, timeCalls, unverifiedAccounts }) => {
    const known = (await unverifiedAccounts(TRIES)).map((user) => user.email);
    expectSameAnswerAtTheFloor(await timeCalls('/api/user/resend-otp', interleaved(known, (email) => ({ email }))));
    await portal.drainJobs();
  });

  it('POST /user/forgotPasssword', async ({ portal, timeCalls, unverifiedAccounts }) => {
    const known = (await unverifiedAccounts(TRIES)).map((user) => user.email);
    expectSameAnswerAtTheFloor(await timeCalls('/api/user/forgotPasssword', interleaved(known, (email) => ({ email }))));
    await portal.drainJobs();
  });

  it('POST /user/verify-otp with a wrong code', async ({ timeCalls, unverifiedAccounts }) => {
    const known = (await unverifiedAccounts(TRIES)).map((user) => user.email);
    // Each known account holds a live code, so a wrong try is counted against it.
    await timeCalls('/api/user/resend-otp', known.map((email) => ({ known: true, payload: { email } })));
    expectSameAnswerAtTheFloor(await timeCalls('/api/user/verify-otp', interleaved(known, (email) => ({ email, otp: '000000' }))));
  });
});

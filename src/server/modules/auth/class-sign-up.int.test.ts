import { eq, inArray } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser } from '../../../testing/factories.ts';
import { codeIn, latestCode, mailsTo, uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { mails, refreshTokens, users } from '../../db/schema.ts';
import { OTP_SEND_LIMITS, otpSendKeys } from './otp.service.ts';
import { describe, expect, inject, test } from '../../../testing/portal-test.ts';

// A training room: every learner's request comes from the room's one public address, through the
// spec's REST paths (section 7), and each reads the code from the mail the SMTP server received.

const CLASS_SIZE = 60;

const registration = (email: string, password: string) => ({
  tittle: 'Mr',
  firstName: 'Cadet',
  lastName: 'Deckhand',
  mobile: '9876543210',
  email,
  password,
});

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** A client written from the spec, at one address: what it sent and what each step answered. */
type TSpecClient = {
  answers: Array<{ step: string; status: number; message?: string }>;
  post(step: string, url: string, payload: object): Promise<{ status: number; body: Record<string, unknown> }>;
};

test.override({ portalOptions: { redis: Boolean(inject('redisUrl')), smtp: true } });

const it = test
  /** A spec client at one address: every answer it got, by step. */
  .extend('specClient', { scope: 'file' }, ({ portal }) => (remoteAddress: string): TSpecClient => {
    const answers: Array<{ step: string; status: number; message?: string }> = [];
    return {
      answers,
      async post(step: string, url: string, payload: object) {
        const res = await portal.app.inject({ method: 'POST', url: `/api${url}`, payload, remoteAddress });
        const body = res.json() as Record<string, unknown>;
        answers.push({ step, status: res.statusCode, message: typeof body.message === 'string' ? body.message : undefined });
        return { status: res.statusCode, body };
      },
    };
  })
  /**
   * One learner of the class, as people do it: some ask for the code again, some mistype it, some
   * mistype the password; then the client refreshes its token once.
   */
  .extend('learnerSignsUp', { scope: 'file' }, ({ smtp }) => async (client: TSpecClient, index: number) => {
    const email = uniqueEmail(`cadet${index}`);
    const password = `Bosun-Whistle-${index}`;
    expect((await client.post('register', '/user/register', registration(email, password))).status).toBe(201);
    let mailsSoFar = 1;
    if (index % 12 === 0) {
      expect((await client.post('resend', '/user/resend-otp', { email })).status).toBe(200);
      mailsSoFar += 1;
    }
    if (index % 30 === 5) {
      // Asked twice, as the one who did not see the first mail arrive does.
      expect((await client.post('resend', '/user/resend-otp', { email })).status).toBe(200);
      expect((await client.post('resend', '/user/resend-otp', { email })).status).toBe(200);
      mailsSoFar += 2;
    }
    // Each mail goes by its own job, so a resent code may arrive before the first one: only the newest
    // code counts, and the learner with two mails tries the one that arrived last, then the other.
    const codes = (await mailsTo(smtp, email, mailsSoFar)).map(codeIn).reverse();
    if (index % 10 === 3) expect((await client.post('verify (typo)', '/user/verify-otp', { email, otp: wrong(codes[0]!) })).status).toBe(400);
    let verified = 0;
    for (const code of codes) {
      verified = (await client.post('verify', '/user/verify-otp', { email, otp: code })).status;
      if (verified === 200) break;
    }
    expect(verified).toBe(200);
    if (index % 8 === 1) expect((await client.post('login (typo)', '/user/login', { email, password: `${password}x` })).status).toBe(401);
    const login = await client.post('login', '/user/login', { email, password });
    expect(login.status).toBe(200);
    const refreshed = await client.post('refresh', '/user/refresh-token', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    return email;
  });

describe('a class behind one address', () => {
  it(`signs up, verifies and logs in, all ${CLASS_SIZE}, with no 429`, { timeout: 90_000 }, async ({ db, learnerSignsUp, specClient }) => {
    const client = specClient(uniqueIp());
    const settled = await Promise.allSettled(Array.from({ length: CLASS_SIZE }, (_, index) => learnerSignsUp(client, index)));

    expect(client.answers.filter((answer) => answer.status === 429)).toEqual([]);
    expect(settled.filter((result) => result.status === 'rejected')).toEqual([]);
    const emails = settled.map((result) => (result as PromiseFulfilledResult<string>).value);
    const rows = await db.select().from(users).where(inArray(users.email, emails));
    expect(rows).toHaveLength(CLASS_SIZE);
    expect(rows.every((row) => row.verifiedAt instanceof Date)).toBe(true);
    const sessions = await db.select().from(refreshTokens).where(inArray(refreshTokens.userId, rows.map((row) => row.id)));
    expect(new Set(sessions.map((token) => token.userId)).size).toBe(CLASS_SIZE);
  });

  it('gives back the room a learner took once the code is used from that address', async ({ portal, smtp, specClient }) => {
    const ip = uniqueIp();
    const { limit, windowMs } = OTP_SEND_LIMITS.perAddress;
    for (let i = 1; i < limit; i += 1) await portal.runtime.rateLimit.hit(otpSendKeys.address(ip), windowMs);
    const client = specClient(ip);

    const first = uniqueEmail('room');
    expect((await client.post('register', '/user/register', registration(first, 'Bosun-Whistle-1'))).status).toBe(201);
    expect((await client.post('verify', '/user/verify-otp', { email: first, otp: await latestCode(smtp, first) })).status).toBe(200);

    // The used code no longer counts against the room, so the next learner gets one.
    const second = uniqueEmail('room');
    expect((await client.post('register', '/user/register', registration(second, 'Bosun-Whistle-2'))).status).toBe(201);
    const third = await client.post('register', '/user/register', registration(uniqueEmail('room'), 'Bosun-Whistle-3'));
    expect(third.status).toBe(429);
  });

  it('gives back the room of a password reset code used from that address', async ({ db, portal, smtp, specClient }) => {
    const ip = uniqueIp();
    const { limit, windowMs } = OTP_SEND_LIMITS.perAddress;
    const user = await createUser(db, { email: uniqueEmail('forgetful') });
    for (let i = 1; i < limit; i += 1) await portal.runtime.rateLimit.hit(otpSendKeys.address(ip), windowMs);
    const client = specClient(ip);
    expect((await client.post('forgot', '/user/forgotPasssword', { email: user.email })).status).toBe(200);
    const otp = await latestCode(smtp, user.email);
    expect((await client.post('reset', '/user/resetPassword', { email: user.email, otp, newPassword: 'Lighthouse-Keeper-4' })).status).toBe(200);
    expect((await portal.runtime.rateLimit.peek(otpSendKeys.address(ip))).count).toBe(limit - 1);
  });
});

describe('one address asking codes for strangers', () => {
  it('is refused before it has mailed 300 of them, while another address signs up', { timeout: 90_000 }, async ({ db, smtp, specClient }) => {
    const sprayer = specClient(uniqueIp());
    const strangers = Array.from({ length: 300 }, () => uniqueEmail('stranger'));
    const statuses: number[] = [];
    // A script sends them twenty at a time.
    for (let at = 0; at < strangers.length; at += 20) {
      const batch = strangers.slice(at, at + 20);
      const answers = await Promise.all(batch.map((email) => sprayer.post('register', '/user/register', registration(email, 'Stranger-Danger-1'))));
      statuses.push(...answers.map((answer) => answer.status));
    }

    const accepted = statuses.filter((status) => status === 201).length;
    expect(accepted).toBeLessThanOrEqual(OTP_SEND_LIMITS.perAddress.limit);
    expect(accepted).toBeGreaterThanOrEqual(CLASS_SIZE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(strangers.length - accepted);
    const refused = sprayer.answers.find((answer) => answer.status === 429)!;
    expect(refused.message).toMatch(/^Too many codes requested\. Please try again in \d+ minutes?\.$/);
    expect([MESSAGES.auth.tooManyCodes(59), MESSAGES.auth.tooManyCodes(60)]).toContain(refused.message);
    const mailed = await db.select().from(mails).where(inArray(mails.to, strangers));
    expect(mailed).toHaveLength(accepted);

    // The same address cannot switch to the other code mails either.
    expect((await sprayer.post('resend', '/user/resend-otp', { email: strangers[0]! })).status).toBe(429);
    expect((await sprayer.post('forgot', '/user/forgotPasssword', { email: strangers[1]! })).status).toBe(429);

    // Another address is not affected.
    const neighbour = specClient('127.0.0.2');
    const email = uniqueEmail('neighbour');
    expect((await neighbour.post('register', '/user/register', registration(email, 'Harbour-Master-2'))).status).toBe(201);
    expect((await neighbour.post('verify', '/user/verify-otp', { email, otp: await latestCode(smtp, email) })).status).toBe(200);
    expect((await neighbour.post('login', '/user/login', { email, password: 'Harbour-Master-2' })).status).toBe(200);
  });

  it(`still sends one e-mail at most ${OTP_SEND_LIMITS.perEmail.limit} codes in ${OTP_SEND_LIMITS.perEmail.windowMs / 60_000} minutes, from any address`, async ({ db, smtp, specClient }) => {
    const email = uniqueEmail('one-inbox');
    const room = specClient(uniqueIp());
    expect((await room.post('register', '/user/register', registration(email, 'Bosun-Whistle-9'))).status).toBe(201);
    for (let sent = 1; sent < OTP_SEND_LIMITS.perEmail.limit; sent += 1) {
      expect((await room.post('resend', '/user/resend-otp', { email })).status).toBe(200);
    }
    const refused = await room.post('resend', '/user/resend-otp', { email });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many codes requested/);
    expect((await specClient(uniqueIp()).post('forgot', '/user/forgotPasssword', { email })).status).toBe(429);
    await mailsTo(smtp, email, OTP_SEND_LIMITS.perEmail.limit);
    expect(await db.select().from(mails).where(eq(mails.to, email))).toHaveLength(OTP_SEND_LIMITS.perEmail.limit);
  });
});

import { eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { codeIn, latestCode, mailsTo, uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { jobOutbox, mails, oneTimePasswords, users } from '../../db/schema.ts';
import { verifyAccessToken } from '../../lib/tokens.ts';
import { asSession } from '../../../testing/second-factor.ts';
import { describe, expect, inject, test } from '../../../testing/portal-test.ts';

// The code travels the way it does in production: an outbox row, BullMQ on Redis (when the run
// has one), a worker, a real SMTP server; the test reads it from the received mail.
const viaRedis = Boolean(inject('redisUrl'));

/** A learner's registration as the browser sends it (auth.register). */
const registration = (email: string) => ({
  title: 'Dr',
  firstName: 'Meera',
  lastName: 'Iyer',
  mobile: '9876543210',
  email,
  password: 'Anchor#77',
});

/** The same as a client written to the spec posts it to POST /user/register, the prefix as `tittle`. */
function specRegistration(email: string) {
  const { title, ...rest } = registration(email);
  return { tittle: title, ...rest };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.override({ portalOptions: { redis: viaRedis, smtp: true } });

const it = test
  .extend('userRow', { scope: 'file' }, ({ db }) => async (email: string) => {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row;
  });

describe(`registration through tRPC (${viaRedis ? 'BullMQ on Redis' : 'in-process jobs'}, real SMTP)`, () => {
  it('registers, mails a code, verifies it and logs in', async ({ db, portal, smtp, userRow }) => {
    const email = uniqueEmail('trpc');
    const visitor = portal.caller(null, uniqueIp());
    expect(await visitor.auth.register({ ...registration(email), email: email.toUpperCase() })).toEqual({
      message: MESSAGES.auth.registered,
      email,
    });

    const stored = await userRow(email);
    expect(stored).toMatchObject({ title: 'Dr', firstName: 'Meera', role: 'learner', verifiedAt: null, approvedAt: null });
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const [mail] = await mailsTo(smtp, email);
    expect(mail!.subject).toContain('verification code');
    const code = codeIn(mail!);

    // The code is nowhere but in the mail: not in the job, not in the code table, and the mail's
    // body is forgotten once delivered.
    const [otp] = await db.select().from(oneTimePasswords).where(eq(oneTimePasswords.userId, stored!.id));
    expect(otp!.codeHash).not.toContain(code);
    expect(otp!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const [queued] = await db.select().from(mails).where(eq(mails.to, email));
    const [job] = await db.select().from(jobOutbox).where(eq(jobOutbox.businessKey, queued!.id));
    expect(job!.payload).toEqual({ mailId: queued!.id });
    await waitUntil(async () => {
      const [row] = await db.select().from(mails).where(eq(mails.id, queued!.id));
      return row?.sentAt !== null && row?.text === null;
    });

    expect(await visitor.auth.verifyOtp({ email, otp: code })).toEqual({ message: MESSAGES.auth.otpVerified });
    expect((await userRow(email))!.verifiedAt).toBeInstanceOf(Date);

    const session = asSession(await visitor.auth.login({ email, password: 'Anchor#77' }));
    expect(session.user).toEqual({
      id: stored!.id,
      name: 'Meera Iyer',
      email,
      role: 'learner',
      staffRole: null,
      verified: true,
      approved: false,
    });
    const claims = verifyAccessToken(session.accessToken, portal.runtime.jwtSecret);
    expect(claims).toMatchObject({ sub: stored!.id, role: 'learner', typ: 'access' });
    expect(claims!.exp - claims!.iat).toBe(15 * 60);
  });
});

describe('registration through REST', () => {
  it('answers the documented shapes from register to login', async ({ portal, smtp, userRow }) => {
    const email = uniqueEmail('rest');
    const remoteAddress = uniqueIp();
    const post = (url: string, payload: unknown) =>
      portal.app.inject({ method: 'POST', url: `/api${url}`, payload: payload as object, remoteAddress });

    const registered = await post('/user/register', specRegistration(email));
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({ message: MESSAGES.auth.registered, email });
    expect((await userRow(email))!.title).toBe('Dr');

    const unverified = await post('/user/login', { email, password: 'Anchor#77' });
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().message).toBe(MESSAGES.auth.emailNotVerified);

    const first = await latestCode(smtp, email);
    expect((await post('/user/resend-otp', { email })).json()).toEqual({ message: MESSAGES.auth.otpResent });
    const second = await latestCode(smtp, email, 2);

    // The resent code replaced the first one.
    if (first !== second) {
      const stale = await post('/user/verify-otp', { email, otp: first });
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toMatchObject({ message: MESSAGES.auth.otpRejected });
    }
    const verified = await post('/user/verify-otp', { email, otp: second });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: MESSAGES.auth.otpVerified });

    const login = await post('/user/login', { email, password: 'Anchor#77' });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    const row = await userRow(email);
    expect(body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: { _id: row!.id, name: 'Meera Iyer', email, role: 'learner' },
    });

    const refreshed = await post('/user/refresh-token', { refreshToken: body.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    expect(Object.keys(refreshed.json()).sort()).toEqual(['accessToken', 'refreshToken']);
  });

  it('refuses a second account for the same e-mail and writes nothing', async ({ db, portal, userRow }) => {
    const email = uniqueEmail('twice');
    const remoteAddress = uniqueIp();
    const first = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: specRegistration(email), remoteAddress });
    expect(first.statusCode).toBe(201);
    const again = await portal.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { ...specRegistration(email), firstName: 'Other' },
      remoteAddress,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: MESSAGES.auth.emailTaken });
    expect((await userRow(email))!.firstName).toBe('Meera');
    expect(await db.select().from(mails).where(eq(mails.to, email))).toHaveLength(1);
  });

  it('lets one of two simultaneous registrations of an e-mail through', async ({ db, portal }) => {
    const email = uniqueEmail('race');
    const results = await Promise.allSettled([
      portal.caller(null, uniqueIp()).auth.register(registration(email)),
      portal.caller(null, uniqueIp()).auth.register(registration(email)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });
});

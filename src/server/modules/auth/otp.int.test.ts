import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { asSession } from '../../../testing/second-factor.ts';
import { latestCode, mailsTo, uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { mails, oneTimePasswords, refreshTokens, users } from '../../db/schema.ts';
import { OTP_MAX_FAILURES, OTP_SEND_LIMITS, otpSendKeys } from './otp.service.ts';
import { describe, expect, inject, test } from '../../../testing/portal-test.ts';

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test.override({ portalOptions: { redis: Boolean(inject('redisUrl')), smtp: true } });

const it = test
  /** An unverified learner with a verification code in their mailbox. */
  .extend('learnerWithCode', { scope: 'file' }, ({ portal, db, smtp }) => async () => {
    const user = await createUser(db, { email: uniqueEmail('otp'), verifiedAt: null });
    await portal.caller(null, uniqueIp()).auth.resendOtp({ email: user.email });
    return { user, code: await latestCode(smtp, user.email) };
  })
  .extend('codesOf', { scope: 'file' }, ({ db }) => (userId: string) =>
    db.select().from(oneTimePasswords).where(eq(oneTimePasswords.userId, userId)))
  .extend('userById', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!);

describe('verification codes', () => {
  it('are six random digits, stored only as a keyed hash, valid for ten minutes', async ({ codesOf, learnerWithCode }) => {
    const { user, code } = await learnerWithCode();
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await codesOf(user.id);
    expect(row!.purpose).toBe('verify_email');
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(lifetime).toBeGreaterThan(9.9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 1000);
  });

  it('refuses an expired code and leaves the account unverified', async ({ db, learnerWithCode, portal, userById }) => {
    const { user, code } = await learnerWithCode();
    await db
      .update(oneTimePasswords)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimePasswords.userId, user.id));
    await expect(portal.caller().auth.verifyOtp({ email: user.email, otp: code })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: MESSAGES.auth.otpRejected,
    });
    expect((await userById(user.id)).verifiedAt).toBeNull();
  });

  it('ends a code after five wrong tries, even for the right one afterwards', async ({ codesOf, learnerWithCode, portal, userById }) => {
    const { user, code } = await learnerWithCode();
    for (let i = 0; i < OTP_MAX_FAILURES; i += 1) {
      await expect(portal.caller().auth.verifyOtp({ email: user.email, otp: wrong(code) })).rejects.toMatchObject({
        message: MESSAGES.auth.otpRejected,
      });
    }
    expect((await codesOf(user.id))[0]!.failedAttempts).toBe(OTP_MAX_FAILURES);
    await expect(portal.caller().auth.verifyOtp({ email: user.email, otp: code })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const [row] = await codesOf(user.id);
    expect(row!.failedAttempts).toBe(OTP_MAX_FAILURES);
    expect(row!.consumedAt).toBeNull();
    expect((await userById(user.id)).verifiedAt).toBeNull();
  });

  it('works once: of two simultaneous verifications exactly one succeeds', async ({ codesOf, learnerWithCode, portal }) => {
    const { user, code } = await learnerWithCode();
    const results = await Promise.allSettled([
      portal.caller().auth.verifyOtp({ email: user.email, otp: code }),
      portal.caller().auth.verifyOtp({ email: user.email, otp: code }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((await codesOf(user.id))[0]!.consumedAt).toBeInstanceOf(Date);
    // Used once, then never again.
    await expect(portal.caller().auth.verifyOtp({ email: user.email, otp: code })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('is voided by a newer code', async ({ codesOf, learnerWithCode, portal, smtp }) => {
    const { user, code: first } = await learnerWithCode();
    await portal.caller(null, uniqueIp()).auth.resendOtp({ email: user.email });
    const second = await latestCode(smtp, user.email, 2);
    const rows = await codesOf(user.id);
    expect(rows).toHaveLength(2);
    expect(rows.filter((row) => row.voidedAt !== null)).toHaveLength(1);
    if (first !== second) {
      await expect(portal.caller().auth.verifyOtp({ email: user.email, otp: first })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
    expect(await portal.caller().auth.verifyOtp({ email: user.email, otp: second })).toEqual({
      message: MESSAGES.auth.otpVerified,
    });
  });

  it('cannot reset a password, and a reset code cannot verify an e-mail', async ({ codesOf, learnerWithCode, portal, smtp, userById }) => {
    const { user, code } = await learnerWithCode();
    await expect(
      portal.caller().auth.resetPassword({ email: user.email, otp: code, newPassword: 'Brand-new-1' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: MESSAGES.auth.otpRejected });
    expect((await userById(user.id)).passwordHash).toBe(user.passwordHash);

    await portal.caller(null, uniqueIp()).auth.forgotPassword({ email: user.email });
    const resetCode = await latestCode(smtp, user.email, 2);
    await expect(portal.caller().auth.verifyOtp({ email: user.email, otp: resetCode })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await userById(user.id)).verifiedAt).toBeNull();
    // Each purpose keeps its own live code.
    const live = (await codesOf(user.id)).filter((row) => row.voidedAt === null && row.consumedAt === null);
    expect(live.map((row) => row.purpose).sort()).toEqual(['reset_password', 'verify_email']);
  });

  it('answers an unknown e-mail exactly like a known one, and sends nothing', async ({ db, portal }) => {
    const known = await createUser(db, { email: uniqueEmail('known'), verifiedAt: null });
    const unknown = uniqueEmail('nobody');
    const visitor = portal.caller(null, uniqueIp());
    expect(await visitor.auth.resendOtp({ email: unknown })).toEqual(await visitor.auth.resendOtp({ email: known.email }));
    expect(await visitor.auth.forgotPassword({ email: unknown })).toEqual({ message: MESSAGES.auth.forgotSent });
    const rest = await portal.app.inject({
      method: 'POST',
      url: '/api/user/forgotPasssword',
      payload: { email: unknown },
      remoteAddress: uniqueIp(),
    });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toEqual({ message: MESSAGES.auth.forgotSent });
    expect(await db.select().from(mails).where(eq(mails.to, unknown))).toHaveLength(0);
    expect(await db.select().from(users).where(eq(users.email, unknown))).toHaveLength(0);
    await expect(portal.caller().auth.verifyOtp({ email: unknown, otp: '123456' })).rejects.toMatchObject({
      message: MESSAGES.auth.otpRejected,
    });
  });

  it('sends nothing to an account already verified', async ({ codesOf, db, portal }) => {
    const user = await createUser(db, { email: uniqueEmail('done') });
    expect(await portal.caller(null, uniqueIp()).auth.resendOtp({ email: user.email })).toEqual({
      message: MESSAGES.auth.otpResent,
    });
    expect(await codesOf(user.id)).toHaveLength(0);
    expect(await db.select().from(mails).where(eq(mails.to, user.email))).toHaveLength(0);
  });
});

describe('sending codes is throttled', () => {
  it(`per e-mail: ${OTP_SEND_LIMITS.perEmail.limit} in ${OTP_SEND_LIMITS.perEmail.windowMs / 60_000} minutes`, async ({ codesOf, db, portal, smtp }) => {
    const user = await createUser(db, { email: uniqueEmail('throttle'), verifiedAt: null });
    for (let i = 0; i < OTP_SEND_LIMITS.perEmail.limit; i += 1) {
      await portal.caller(null, uniqueIp()).auth.resendOtp({ email: user.email });
    }
    const refused = await portal.app.inject({
      method: 'POST',
      url: '/api/user/resend-otp',
      payload: { email: user.email },
      remoteAddress: uniqueIp(),
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many codes requested/);
    await mailsTo(smtp, user.email, OTP_SEND_LIMITS.perEmail.limit);
    expect(await codesOf(user.id)).toHaveLength(OTP_SEND_LIMITS.perEmail.limit);
    // An unknown e-mail is throttled the same way, so the 429 says nothing either.
    const unknown = uniqueEmail('ghost');
    for (let i = 0; i < OTP_SEND_LIMITS.perEmail.limit; i += 1) {
      await portal.caller(null, uniqueIp()).auth.forgotPassword({ email: unknown });
    }
    await expect(portal.caller(null, uniqueIp()).auth.forgotPassword({ email: unknown })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
  });

  it(`per address: ${OTP_SEND_LIMITS.perAddress.limit} not yet used in an hour, registration included`, async ({ db, portal }) => {
    const ip = uniqueIp();
    const { limit, windowMs } = OTP_SEND_LIMITS.perAddress;
    for (let i = 1; i < limit; i += 1) await portal.runtime.rateLimit.hit(otpSendKeys.address(ip), windowMs);
    await portal.caller(null, ip).auth.resendOtp({ email: uniqueEmail('last') });
    const email = uniqueEmail('blocked');
    const refused = await portal.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { tittle: 'Mr', firstName: 'Ravi', lastName: 'Kumar', mobile: '9123456780', email, password: TEST_PASSWORD },
      remoteAddress: ip,
    });
    expect(refused.statusCode).toBe(429);
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});

describe('password reset', () => {
  it('sets the new password, uses the code once and ends every session', async ({ db, portal, smtp }) => {
    const user = await createUser(db, { email: uniqueEmail('reset') });
    const ip = uniqueIp();
    const first = (
      await portal.app.inject({ method: 'POST', url: '/api/user/login', payload: { email: user.email, password: TEST_PASSWORD }, remoteAddress: ip })
    ).json();
    await portal.caller(null, ip).auth.login({ email: user.email, password: TEST_PASSWORD });

    await portal.app.inject({ method: 'POST', url: '/api/user/forgotPasssword', payload: { email: user.email }, remoteAddress: ip });
    const [mail] = await mailsTo(smtp, user.email);
    expect(mail!.subject).toContain('password reset code');
    const code = await latestCode(smtp, user.email);

    const reset = await portal.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      payload: { email: user.email, otp: code, newPassword: 'Harbour-Lights-9' },
      remoteAddress: ip,
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: MESSAGES.auth.resetDone });

    const tokens = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(tokens).toHaveLength(2);
    expect(tokens.every((token) => token.revokedAt !== null)).toBe(true);
    const refreshed = await portal.app.inject({ method: 'POST', url: '/api/user/refresh-token', payload: { refreshToken: first.refreshToken } });
    expect(refreshed.statusCode).toBe(401);
    // The sessions' access tokens end with them, not when they would have expired.
    const withOldToken = await portal.app.inject({ url: '/api/userProfile', headers: { authorization: `Bearer ${first.accessToken}` } });
    expect(withOldToken.statusCode).toBe(401);
    await expect(portal.caller(null, ip).auth.login({ email: user.email, password: TEST_PASSWORD })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect(asSession(await portal.caller(null, ip).auth.login({ email: user.email, password: 'Harbour-Lights-9' })).user.id).toBe(user.id);

    const again = await portal.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      payload: { email: user.email, otp: code, newPassword: 'Another-one-1' },
      remoteAddress: ip,
    });
    expect(again.statusCode).toBe(400);
    const [after] = await db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(and(eq(users.id, user.id)));
    expect(after!.hash).toMatch(/^\$argon2id\$/);
    expect(asSession(await portal.caller(null, ip).auth.login({ email: user.email, password: 'Harbour-Lights-9' })).user.id).toBe(user.id);
  });
});

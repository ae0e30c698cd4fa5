import { eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser } from '../../../testing/factories.ts';
import { asSession } from '../../../testing/second-factor.ts';
import { latestCode, uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { oneTimePasswords, users } from '../../db/schema.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const V = MESSAGES.validation;

/** A registration as the browser sends it (auth.register). */
const registration = (password: string) => ({
  title: 'Mr',
  firstName: 'Vikram',
  lastName: 'Rao',
  mobile: '9876543210',
  email: uniqueEmail('newpw'),
  password,
});
/** The same as a client written to the spec posts it to POST /user/register, the prefix as `tittle`. */
function specRegistration(body: ReturnType<typeof registration>) {
  const { title, ...rest } = body;
  return { tittle: title, ...rest };
}

test.override({ portalOptions: { smtp: true } });

const it = test
  .extend('accountsWith', { scope: 'file' }, ({ db }) => async (email: string) => (await db.select().from(users).where(eq(users.email, email))).length);

describe('new passwords', () => {
  it('on the common list are refused at sign-up, whatever their case, naming the rule; nothing is written', async ({ accountsWith, portal }) => {
    for (const password of ['password123', 'PassWord123', 'QWERTYUIOP', 'iloveyou1']) {
      const body = registration(password);
      const res = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: specRegistration(body), remoteAddress: uniqueIp() });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().message).toBe(V.passwordCommon);
      await expect(portal.caller(null, uniqueIp()).auth.register(body)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: V.passwordCommon });
      expect(await accountsWith(body.email)).toBe(0);
    }
  });

  it('of eight characters or more that are not common are accepted, with no rule on their composition', async ({ accountsWith, portal }) => {
    const body = registration('anchorage harbour');
    const res = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: specRegistration(body), remoteAddress: uniqueIp() });
    expect(res.statusCode).toBe(201);
    expect(await accountsWith(body.email)).toBe(1);
  });

  it('on the common list are refused by a reset, and the code stays usable', async ({ db, portal, smtp }) => {
    const user = await createUser(db, { email: uniqueEmail('reset-common') });
    const ip = uniqueIp();
    await portal.app.inject({ method: 'POST', url: '/api/user/forgotPasssword', payload: { email: user.email }, remoteAddress: ip });
    const otp = await latestCode(smtp, user.email);
    const refused = await portal.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      payload: { email: user.email, otp, newPassword: 'Sunshine1' },
      remoteAddress: ip,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(V.passwordCommon);
    expect((await db.select().from(oneTimePasswords).where(eq(oneTimePasswords.userId, user.id))).every((row) => row.consumedAt === null && row.failedAttempts === 0)).toBe(true);
    const short = await portal.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      payload: { email: user.email, otp, newPassword: 'Abc-123' },
      remoteAddress: ip,
    });
    expect(short.json().message).toBe(V.newPasswordShort);
    const accepted = await portal.app.inject({
      method: 'POST',
      url: '/api/user/resetPassword',
      payload: { email: user.email, otp, newPassword: 'Lighthouse-at-dawn' },
      remoteAddress: ip,
    });
    expect(accepted.statusCode).toBe(200);
  });

  it('leave the passwords chosen under the old 5-character rule working', async ({ db, portal }) => {
    const user = await createUser(db, { email: uniqueEmail('old-rule'), passwordHash: await hashPassword('kochi') });
    const session = asSession(await portal.caller(null, uniqueIp()).auth.login({ email: user.email, password: 'kochi' }));
    expect(session.user.id).toBe(user.id);
  });
});

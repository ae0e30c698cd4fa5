import { eq, or } from 'drizzle-orm';
import { restSignIn } from '../../../testing/second-factor.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { fromSpecRegistration } from '../../../shared/spec-fields.ts';
import { createUser, sessionOf, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { mails, oneTimePasswords, refreshTokens, users } from '../../db/schema.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const V = MESSAGES.validation;
const email = uniqueEmail('bad-input');
const valid = {
  register: { tittle: 'Mr', firstName: 'Kiran', lastName: 'Rao', mobile: '9876501234', email, password: TEST_PASSWORD },
  login: { email, password: TEST_PASSWORD },
  verifyOtp: { email, otp: '123456' },
  resendOtp: { email },
  forgotPassword: { email },
  resetPassword: { email, otp: '123456', newPassword: 'Brand-new-1' },
  refresh: { refreshToken: 'A'.repeat(43) },
} as const;
type Route = keyof typeof valid;

const REST_PATHS: Record<Route, string> = {
  register: '/api/user/register',
  login: '/api/user/login',
  verifyOtp: '/api/user/verify-otp',
  resendOtp: '/api/user/resend-otp',
  forgotPassword: '/api/user/forgotPasssword',
  resetPassword: '/api/user/resetPassword',
  refresh: '/api/user/refresh-token',
};

/** Spec clients refresh in the body; the browser refreshes with its cookie, so there is no auth.refresh. */
const REST_ONLY: ReadonlySet<Route> = new Set(['refresh']);

const HOSTILE_STRINGS = [
  '',
  ' ',
  'x'.repeat(100_000),
  'nul\u0000byte',
  "' or '1'='1",
  '<script>alert(1)</script>',
  '\ud800',
  '\u202Egnp.exe',
];
const WRONG_TYPES = [null, 42, true, ['a'], { $ne: '' }];

/** Every way to break each route's body: whole-body shapes, then each field missing, mistyped, hostile. */
function badBodies(route: Route): Array<[string, unknown]> {
  const base = valid[route] as Record<string, unknown>;
  const cases: Array<[string, unknown]> = [
    ['no body', undefined],
    ['a string', 'email=a@b.c'],
    ['an array', [base]],
    ['a number', 7],
    ['role smuggled in', { ...base, role: 'admin' }],
    ['approval smuggled in', { ...base, approved: true, verifiedAt: '2020-01-01' }],
  ];
  for (const field of Object.keys(base)) {
    const { [field]: _dropped, ...without } = base;
    cases.push([`${field} missing`, without]);
    for (const value of WRONG_TYPES) cases.push([`${field} = ${JSON.stringify(value)}`, { ...base, [field]: value }]);
    for (const value of HOSTILE_STRINGS) {
      // Passwords may hold any character; only their length is bounded.
      if (/password/i.test(field) && value.length > 0 && value.length < 200 && value.trim().length >= 5) continue;
      // Names may hold quotes (O'Brien); queries are parameterised, so this is stored as typed (below).
      if (/Name$/.test(field) && value.startsWith("'")) continue;
      cases.push([`${field} = ${JSON.stringify(value.slice(0, 20))}`, { ...base, [field]: value }]);
    }
  }
  return cases;
}

const it = test
  .extend('nothingWritten', { scope: 'file' }, ({ db }) => async () => {
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await db.select().from(mails).where(eq(mails.to, email))).toHaveLength(0);
  });

describe('bad input on every accounts route', () => {
  for (const route of Object.keys(valid) as Route[]) {
    it(`${route}: ${REST_ONLY.has(route) ? 'REST answers' : 'REST and tRPC answer'} 400 with a clear message, and nothing is written`, async ({ nothingWritten, portal }) => {
      for (const [label, body] of badBodies(route)) {
        const remoteAddress = uniqueIp();
        const rest = await portal.app.inject({
          method: 'POST',
          url: REST_PATHS[route],
          remoteAddress,
          ...(body === undefined
            ? {}
            : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
        });
        expect(rest.statusCode, `${route} REST ${label}`).toBe(400);
        const restMessage = rest.json().message as string;
        expect(restMessage, `${route} REST ${label}`).toMatch(/^[A-Z]/);
        expect(restMessage, `${route} REST ${label}`).not.toMatch(/Invalid input|expected \w+, received/);

        if (REST_ONLY.has(route)) continue;
        // tRPC takes the registration under the clear names (`title` for the spec's `tittle`).
        const input = route === 'register' ? fromSpecRegistration(body) : body;
        const trpc = await portal.app.inject({
          method: 'POST',
          url: `/trpc/auth.${route}`,
          remoteAddress,
          headers: { 'content-type': 'application/json' },
          payload: input === undefined ? '' : JSON.stringify(input),
        });
        expect(trpc.statusCode, `${route} tRPC ${label}`).toBe(400);
        const trpcMessage = trpc.json().error.message as string;
        expect(trpcMessage, `${route} tRPC ${label}`).not.toMatch(/Invalid input|expected \w+, received|^\[/);
      }
      await nothingWritten();
    });
  }

  it('checks registration in the spec order, one message at a time', async ({ nothingWritten, portal }) => {
    const register = async (body: Record<string, unknown>) => {
      const res = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: body, remoteAddress: uniqueIp() });
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    const base = valid.register;
    expect(await register({ ...base, firstName: '', mobile: '12', email: 'no-at' })).toBe(V.fillAllFields);
    expect(await register({ ...base, mobile: '98765-4321', email: 'no-at', password: '1' })).toBe(V.mobile);
    expect(await register({ ...base, mobile: '98765432100' })).toBe(V.mobile);
    expect(await register({ ...base, email: 'no-at', password: '1' })).toBe(V.emailAt);
    expect(await register({ ...base, email: 'a@b' })).toBe(V.emailInvalid);
    expect(await register({ ...base, password: '1234' })).toBe(V.newPasswordShort);
    expect(await register({ ...base, password: 'Anchor7' })).toBe(V.newPasswordShort);
    expect(await register({ ...base, password: 'x'.repeat(129) })).toBe(V.passwordTooLong);
    expect(await register({ ...base, tittle: 'Sir' })).toBe(V.prefix);
    expect(await register({ ...base, firstName: 'K'.repeat(51) })).toBe(V.tooLong('First name', 50));
    expect(await register({ ...base, lastName: 'R<b>' })).toBe(V.badCharacters('Last name'));
    // A certificate prints the account's name where there is no profile: its fonts could not draw it.
    expect(await register({ ...base, lastName: '王' })).toBe(V.nameNotPrintable('Last name', '王'));
    await nothingWritten();
  });

  it('names the prefix as each edge spells it: `tittle` on REST, `title` on tRPC', async ({ nothingWritten, portal }) => {
    const { tittle: _prefix, ...rest } = valid.register;
    const restAnswer = await portal.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { ...rest, tittle: 'Sir' },
      remoteAddress: uniqueIp(),
    });
    expect(restAnswer.statusCode).toBe(400);
    expect(restAnswer.json()).toEqual({ message: V.prefix, errors: { tittle: V.prefix } });

    const trpc = await portal.app.inject({
      method: 'POST',
      url: '/trpc/auth.register',
      remoteAddress: uniqueIp(),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...rest, title: 'Sir' }),
    });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error).toMatchObject({ message: V.prefix, data: { fields: { title: V.prefix } } });
    await nothingWritten();
  });

  it('uses the spec wording on login, forgot password and OTP', async ({ portal }) => {
    const post = async (url: string, payload: Record<string, unknown>) =>
      (await portal.app.inject({ method: 'POST', url, payload, remoteAddress: uniqueIp() })).json().message;
    expect(await post('/api/user/login', { password: TEST_PASSWORD })).toBe(V.emailRequired);
    expect(await post('/api/user/login', { email: 'nope', password: TEST_PASSWORD })).toBe(V.emailInvalid);
    expect(await post('/api/user/login', { email })).toBe(V.passwordRequired);
    expect(await post('/api/user/login', { email, password: '1234' })).toBe(V.passwordShort);
    expect(await post('/api/user/forgotPasssword', { email: 'nope' })).toBe(V.emailInvalidForgot);
    expect(await post('/api/user/verify-otp', { email, otp: '12345' })).toBe(V.otp);
    expect(await post('/api/user/verify-otp', { email, otp: 123456 })).toBe(V.otp);
  });

  it('stores a name with quotes exactly as typed', async ({ db, portal }) => {
    const target = uniqueEmail('quotes');
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { ...valid.register, email: target, lastName: "O'Brien' or '1'-'1" },
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(201);
    const [row] = await db.select().from(users).where(eq(users.email, target));
    expect(row!.lastName).toBe("O'Brien' or '1'-'1");
  });

  it('refuses a prototype-polluting body', async ({ nothingWritten, portal }) => {
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/user/register',
      headers: { 'content-type': 'application/json' },
      payload: `{"__proto__":{"role":"admin"},${JSON.stringify(valid.register).slice(1)}`,
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(400);
    await nothingWritten();
  });

  it('never lets a smuggled role, approval or verification reach a real account', async ({ db, portal }) => {
    const target = uniqueEmail('smuggler');
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { ...valid.register, email: target, role: 'admin', approvedAt: new Date().toISOString() },
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(V.unknownFields(['role', 'approvedAt']));
    expect(await db.select().from(users).where(eq(users.email, target))).toHaveLength(0);

    // And a learner cannot approve themselves through any accounts route.
    const learner = await createUser(db);
    for (const route of ['login', 'resendOtp', 'forgotPassword'] as const) {
      const body = { ...valid[route], email: learner.email, approved: true, role: 'admin' };
      const answer = await portal.app.inject({ method: 'POST', url: REST_PATHS[route], payload: body, remoteAddress: uniqueIp() });
      expect(answer.statusCode, route).toBe(400);
    }
    const [after] = await db.select().from(users).where(eq(users.id, learner.id));
    expect(after).toMatchObject({ role: 'learner', approvedAt: null });
    expect(
      await db.select().from(refreshTokens).where(eq(refreshTokens.userId, learner.id)),
    ).toHaveLength(0);
    expect(
      await db.select().from(oneTimePasswords).where(or(eq(oneTimePasswords.userId, learner.id))),
    ).toHaveLength(0);
  });

  it('answers bad list queries with 400, never 500', async ({ db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    const { accessToken } = (await restSignIn(portal.app, admin.email, TEST_PASSWORD, uniqueIp())).json();
    for (const query of ['page=0', 'page=-1', 'page=abc', 'pageSize=101', 'pageSize=1e3', 'page=1&page=2', 'sort=email']) {
      const res = await portal.app.inject({
        url: `/api/user/getUnapprovedUsers?${query}`,
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(/^[A-Z]/);
    }
    const caller = portal.caller(sessionOf(admin));
    await expect(caller.users.listUnapproved({ page: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.users.approve({ userId: "1' or 1=1" })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // Over HTTP the tRPC error reads like the REST one: the first problem, and each field's.
    const trpc = await portal.app.inject({
      url: `/trpc/users.listApproved?input=${encodeURIComponent(JSON.stringify({ pageSize: 1000 }))}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error).toMatchObject({ message: V.pageSize, data: { fields: { pageSize: V.pageSize } } });
    const setup = await portal.app.inject({
      method: 'POST',
      url: '/trpc/auth.setupAdmin',
      payload: { ...(fromSpecRegistration(valid.register) as object), token: '' },
    });
    expect(setup.statusCode).toBe(400);
    expect(setup.json().error.message).toBe(MESSAGES.auth.adminSetupInvalid);
  });
});

import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse as InjectResponse } from 'fastify';
import { SESSION_CALL_HEADER } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueIp } from '../../../testing/mailbox.ts';
import { refreshTokens } from '../../db/schema.ts';
import { hashToken } from '../../lib/tokens.ts';
import { REFRESH_COOKIE_NAME } from './browser-session.ts';
import { browserSignIn } from '../../../testing/second-factor.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';

const THIRTY_DAYS_S = 30 * 24 * 3600;

/** Logs in through the browser's procedure, over HTTP as the browser does. */
function browserLogin(app: TestPortal['app'], email: string, procedure: 'login' | 'adminLogin' = 'login') {
  return app.inject({
    method: 'POST',
    url: `/trpc/auth.${procedure}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password: TEST_PASSWORD }),
    remoteAddress: uniqueIp(),
  });
}

/** The one Set-Cookie header of an answer for the refresh cookie. */
function refreshSetCookie(res: InjectResponse): string {
  const headers = res.headers['set-cookie'];
  const all = headers === undefined ? [] : Array.isArray(headers) ? headers : [headers];
  const mine = all.filter((header) => header.startsWith(`${REFRESH_COOKIE_NAME}=`));
  expect(mine, `set-cookie: ${all.join(' | ')}`).toHaveLength(1);
  return mine[0]!;
}

function cookieValue(setCookie: string): string {
  return setCookie.slice(REFRESH_COOKIE_NAME.length + 1).split(';')[0]!;
}

function attributes(setCookie: string): string[] {
  return setCookie.split(';').slice(1).map((part) => part.trim());
}

function maxAgeOf(setCookie: string): number {
  const maxAge = attributes(setCookie).find((part) => part.startsWith('Max-Age='));
  return Number(maxAge?.slice('Max-Age='.length));
}

/** A session call as the browser client makes it: the cookie, and the portal's header. */
function sessionCall(
  app: TestPortal['app'],
  path: 'refresh' | 'logout',
  cookie: string | undefined,
  headers: Record<string, string> = {},
  body?: Record<string, unknown>,
) {
  return app.inject({
    method: 'POST',
    url: `/api/session/${path}`,
    headers: {
      [SESSION_CALL_HEADER.name]: SESSION_CALL_HEADER.value,
      ...(cookie === undefined ? {} : { cookie: `theme=dark; ${REFRESH_COOKIE_NAME}=${cookie}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** The session an access token belongs to (its `sid` claim), as the browser reads it. */
function sessionIdOf(accessToken: string): string {
  return JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')).sid;
}

const it = test
  .extend('me', { scope: 'file' }, ({ portal }) => (accessToken: string) =>
    portal.app.inject({ url: '/trpc/auth.me', headers: { authorization: `Bearer ${accessToken}` } }))
  .extend('loggedIn', { scope: 'file' }, ({ portal, db }) => async () => {
    const user = await createUser(db);
    const res = await browserLogin(portal.app, user.email);
    expect(res.statusCode).toBe(200);
    const setCookie = refreshSetCookie(res);
    return { user, res, setCookie, cookie: cookieValue(setCookie), accessToken: res.json().result.data.accessToken as string };
  });

describe('the browser login', () => {
  it('puts the refresh token in an HttpOnly, SameSite=Strict cookie for the session path only, never in the body', async ({ db, loggedIn, me }) => {
    const { user, res, setCookie, cookie } = await loggedIn();
    expect(attributes(setCookie)).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/session']));
    // Development and tests run on plain http: no Secure there (see the production case below).
    expect(attributes(setCookie)).not.toContain('Secure');
    expect(Math.abs(maxAgeOf(setCookie) - THIRTY_DAYS_S)).toBeLessThan(60);

    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(row!.tokenHash).toBe(hashToken(cookie));

    const data = res.json().result.data;
    expect(Object.keys(data).sort()).toEqual(['accessToken', 'user']);
    expect(res.body).not.toContain(cookie);
    expect(res.body).not.toContain('refreshToken');
    expect((await me(data.accessToken)).json().result.data.id).toBe(user.id);
  });

  it('does the same for the administrators’ login, and sets no cookie when a login is refused', async ({ db, portal }) => {
    const admin = await createUser(db, { role: 'admin' });
    // No cookie until the second factor is given.
    const challenge = await browserLogin(portal.app, admin.email, 'adminLogin');
    expect(challenge.json().result.data).toMatchObject({ secondFactorRequired: true });
    expect(challenge.headers['set-cookie']).toBeUndefined();
    const res = await browserSignIn(portal.app, admin.email, TEST_PASSWORD, 'adminLogin', uniqueIp());
    expect(res.statusCode).toBe(200);
    expect(attributes(refreshSetCookie(res))).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/session']));
    expect(res.body).not.toContain('refreshToken');

    const learner = await createUser(db);
    const refused = await browserLogin(portal.app, learner.email, 'adminLogin');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('leaves the REST login as the spec has it: the refresh token in the body, no cookie', async ({ db, portal }) => {
    const user = await createUser(db);
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      remoteAddress: uniqueIp(),
    });
    expect(res.json().refreshToken).toEqual(expect.any(String));
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('POST /api/session/refresh', () => {
  it('answers a new access token only and rotates the cookie, keeping the session’s end', async ({ db, loggedIn, me, portal }) => {
    const { user, cookie } = await loggedIn();
    const soon = new Date(Date.now() + 120_000);
    await db.update(refreshTokens).set({ expiresAt: soon }).where(eq(refreshTokens.userId, user.id));

    const res = await sessionCall(portal.app, 'refresh', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.json())).toEqual(['accessToken']);
    expect((await me(res.json().accessToken)).json().result.data.id).toBe(user.id);

    const rotated = refreshSetCookie(res);
    expect(cookieValue(rotated)).not.toBe(cookie);
    expect(attributes(rotated)).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/session']));
    // Max-Age is what is left of the session, not a fresh 30 days.
    expect(maxAgeOf(rotated)).toBeGreaterThan(100);
    expect(maxAgeOf(rotated)).toBeLessThanOrEqual(120);
    expect(res.body).not.toContain(cookieValue(rotated));

    const rows = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.map((row) => row.tokenHash)).toContain(hashToken(cookieValue(rotated)));
  });

  it('ends the whole session when an old cookie value comes back after its successor was used', async ({ db, loggedIn, me, portal }) => {
    const { user, cookie: first, accessToken } = await loggedIn();
    const second = cookieValue(refreshSetCookie(await sessionCall(portal.app, 'refresh', first)));
    const thirdRes = await sessionCall(portal.app, 'refresh', second);
    const third = cookieValue(refreshSetCookie(thirdRes));

    // A copy of the first cookie, taken before the browser moved on.
    const replay = await sessionCall(portal.app, 'refresh', first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: MESSAGES.auth.sessionExpired });
    expect(maxAgeOf(refreshSetCookie(replay))).toBe(0);

    // The owner's newest cookie is dead too, and so are the session's access tokens.
    expect((await sessionCall(portal.app, 'refresh', third)).statusCode).toBe(401);
    expect((await me(accessToken)).statusCode).toBe(401);
    expect((await me(thirdRes.json().accessToken)).statusCode).toBe(401);
    const rows = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('refuses a call without a cookie or with an unknown one, and clears the cookie', async ({ portal }) => {
    for (const cookie of [undefined, 'A'.repeat(43)]) {
      const res = await sessionCall(portal.app, 'refresh', cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: MESSAGES.auth.sessionExpired });
      expect(maxAgeOf(refreshSetCookie(res))).toBe(0);
    }
  });

  it('refuses a call without the portal’s header (another site’s form) and leaves the session alone', async ({ db, loggedIn, portal }) => {
    const { user, cookie } = await loggedIn();
    for (const header of [undefined, 'XMLHttpRequest']) {
      const res = await portal.app.inject({
        method: 'POST',
        url: '/api/session/refresh',
        headers: { cookie: `${REFRESH_COOKIE_NAME}=${cookie}`, ...(header ? { [SESSION_CALL_HEADER.name]: header } : {}) },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.auth.sessionCallForeign });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(row!.usedAt).toBeNull();
    expect((await sessionCall(portal.app, 'refresh', cookie)).statusCode).toBe(200);
  });
});

describe('POST /api/session/logout', () => {
  it('ends the session, clears the cookie, and the access token is refused at once', async ({ db, loggedIn, me, portal }) => {
    const { user, cookie, accessToken } = await loggedIn();
    const res = await sessionCall(portal.app, 'logout', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.auth.loggedOut });
    const cleared = refreshSetCookie(res);
    expect(cookieValue(cleared)).toBe('');
    expect(maxAgeOf(cleared)).toBe(0);
    expect(attributes(cleared)).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/session']));

    expect((await me(accessToken)).statusCode).toBe(401);
    expect((await sessionCall(portal.app, 'refresh', cookie)).statusCode).toBe(401);
    const rows = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('answers the same without a cookie, and refuses a call without the portal’s header', async ({ loggedIn, me, portal }) => {
    const res = await sessionCall(portal.app, 'logout', undefined);
    expect(res.json()).toEqual({ message: MESSAGES.auth.loggedOut });
    expect(maxAgeOf(refreshSetCookie(res))).toBe(0);

    const { cookie, accessToken } = await loggedIn();
    const foreign = await portal.app.inject({ method: 'POST', url: '/api/session/logout', headers: { cookie: `${REFRESH_COOKIE_NAME}=${cookie}` } });
    expect(foreign.statusCode).toBe(403);
    expect((await me(accessToken)).statusCode).toBe(200);
  });
});

describe('POST /api/session/logout naming its session (a logout made offline, sent later)', () => {
  it('ends the named session when the cookie is that session’s', async ({ db, loggedIn, portal }) => {
    const { user, cookie, accessToken } = await loggedIn();
    const res = await sessionCall(portal.app, 'logout', cookie, {}, { sessionId: sessionIdOf(accessToken) });
    expect(res.json()).toEqual({ message: MESSAGES.auth.loggedOut });
    expect(maxAgeOf(refreshSetCookie(res))).toBe(0);
    expect((await sessionCall(portal.app, 'refresh', cookie)).statusCode).toBe(401);
    const rows = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('leaves a later session alone: a late copy of the first learner’s logout never signs out the next one', async ({ db, loggedIn, me, portal }) => {
    const first = await loggedIn();
    expect((await sessionCall(portal.app, 'logout', first.cookie)).statusCode).toBe(200);
    // The next learner signs in on the same browser; the first one's queued logout arrives again.
    const next = await loggedIn();
    const late = await sessionCall(portal.app, 'logout', next.cookie, {}, { sessionId: sessionIdOf(first.accessToken) });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toEqual({ message: MESSAGES.auth.loggedOut });
    expect(late.headers['set-cookie']).toBeUndefined();
    expect((await me(next.accessToken)).statusCode).toBe(200);
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, next.user.id));
    expect(row!.revokedAt).toBeNull();
    expect((await sessionCall(portal.app, 'refresh', next.cookie)).statusCode).toBe(200);
  });

  it('refuses a session that is not a session id, or a field it does not know, and ends nothing', async ({ db, loggedIn, me, portal }) => {
    const { user, cookie, accessToken } = await loggedIn();
    for (const body of [{ sessionId: 'not-a-session' }, { sessionId: sessionIdOf(accessToken), userId: user.id }]) {
      const res = await sessionCall(portal.app, 'logout', cookie, {}, body);
      expect(res.statusCode).toBe(400);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await me(accessToken)).statusCode).toBe(200);
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(row!.revokedAt).toBeNull();
  });
});

describe('in production', () => {
  it('marks the cookie Secure, on login, refresh and logout', async () => {
    // A production portal beside the file's: only there is the cookie Secure.
    const production = await createTestPortal({ env: { NODE_ENV: 'production' } });
    try {
      const user = await createUser(production.runtime.db);
      const login = await browserLogin(production.app, user.email);
      const issued = refreshSetCookie(login);
      expect(attributes(issued)).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/api/session']));
      const refreshed = refreshSetCookie(await sessionCall(production.app, 'refresh', cookieValue(issued)));
      expect(attributes(refreshed)).toContain('Secure');
      const cleared = refreshSetCookie(await sessionCall(production.app, 'logout', cookieValue(refreshed)));
      expect(attributes(cleared)).toContain('Secure');
    } finally {
      await production.close();
    }
  });
});

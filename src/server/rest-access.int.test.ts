import Fastify, { type FastifyInstance } from 'fastify';
import { MESSAGES } from '../shared/messages.ts';
import { createUser } from '../testing/factories.ts';
import { sendError } from './lib/http-errors.ts';
import { enforceRouteAccess } from './lib/rest-auth.ts';
import type { TSessionUser } from './lib/session-user.ts';
import { resolveSessionUser } from './modules/users/session.service.ts';
import { afterAll, describe, expect, expectTypeOf, test } from '../testing/portal-test.ts';

/*
 * A route's declared access is what enforces it: a tiny app with the REST scope's access rule
 * (the same enforceRouteAccess and session check api.ts uses, on the test portal's database),
 * whose handlers only count that they ran and answer the caller they were given.
 */

let app: FastifyInstance;
const ran: string[] = [];
let learner: { id: string; role: 'learner' };
let admin: { id: string; role: 'admin' };
let instructor: { id: string; role: 'admin' };

afterAll(async () => {
  await app?.close();
});

const it = test
  .extend('call', { scope: 'file' }, ({ portal }) => (method: 'GET' | 'POST', url: string, user?: { id: string; role: 'learner' | 'admin' }) =>
    app.inject({ method, url, headers: user ? { authorization: portal.authorization(user) } : {} }));

it.beforeAll(async ({ portal, db }) => {
  learner = { id: (await createUser(db)).id, role: 'learner' };
  admin = { id: (await createUser(db, { role: 'admin' })).id, role: 'admin' };
  instructor = { id: (await createUser(db, { role: 'admin', staffRole: 'instructor' })).id, role: 'admin' };
  app = Fastify();
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  await app.register(async (scope) => {
    enforceRouteAccess(scope, (authorization) => resolveSessionUser(portal.runtime, authorization));
    scope.post('/admin-only', { config: { access: 'admin', permission: 'accounts.approve' } }, async (request) => {
      expectTypeOf(request.caller).toEqualTypeOf<TSessionUser>();
      ran.push('admin-only');
      return { caller: request.caller.id };
    });
    scope.get('/signed-in', { config: { access: 'signed-in' } }, async (request) => {
      expectTypeOf(request.caller).toEqualTypeOf<TSessionUser>();
      ran.push('signed-in');
      return { caller: request.caller.id };
    });
    scope.get('/public', { config: { access: 'public' } }, async (request) => {
      expectTypeOf(request.caller).toEqualTypeOf<null>();
      ran.push('public');
      return { caller: request.caller };
    });
  });
  await app.ready();
});

describe('a REST route declared admin', () => {
  it('refuses a learner with 403 and a caller without a token with 401, before its handler runs', async ({ call }) => {
    ran.length = 0;
    const asLearner = await call('POST', '/admin-only', learner);
    expect(asLearner.statusCode).toBe(403);
    expect(asLearner.json()).toEqual({ message: MESSAGES.common.forbidden });
    const anonymous = await call('POST', '/admin-only');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: MESSAGES.common.unauthorized });
    const badToken = await app.inject({ method: 'POST', url: '/admin-only', headers: { authorization: 'Bearer not.a.token' } });
    expect(badToken.statusCode).toBe(401);
    expect(ran).toEqual([]);
  });

  it('lets an administrator in and hands the handler the administrator as its caller', async ({ call }) => {
    ran.length = 0;
    const res = await call('POST', '/admin-only', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ caller: admin.id });
    expect(ran).toEqual(['admin-only']);
  });

  it('refuses a member of staff whose role lacks its permission, and one whose session has no second factor', async ({ call, portal }) => {
    ran.length = 0;
    const asInstructor = await call('POST', '/admin-only', instructor);
    expect(asInstructor.statusCode).toBe(403);
    expect(asInstructor.json()).toEqual({ message: MESSAGES.common.notForYourRole });
    const withoutSecondFactor = await app.inject({ method: 'POST', url: '/admin-only', headers: { authorization: portal.authorization(admin, null) } });
    expect(withoutSecondFactor.statusCode).toBe(403);
    expect(withoutSecondFactor.json()).toEqual({ message: MESSAGES.common.secondFactorNeeded });
    expect(ran).toEqual([]);
  });

  it('cannot be registered without the permission it needs', async () => {
    const open = Fastify();
    try {
      await expect(
        open.register(async (scope) => {
          enforceRouteAccess(scope, async () => null);
          scope.get('/unnamed', { config: { access: 'admin' } }, async () => ({}));
        }),
      ).rejects.toThrow('GET /unnamed is a staff route without its permission');
    } finally {
      await open.close();
    }
  });

  it('follows the role in the database, not the one in the token', async ({ call }) => {
    ran.length = 0;
    const claimsAdmin = await call('POST', '/admin-only', { id: learner.id, role: 'admin' } as unknown as typeof admin);
    expect(claimsAdmin.statusCode).toBe(403);
    expect(ran).toEqual([]);
  });
});

describe('a REST route declared signed-in or public', () => {
  it('signed-in: refuses a caller without a token with 401, and hands any signed-in caller on', async ({ call }) => {
    ran.length = 0;
    expect((await call('GET', '/signed-in')).statusCode).toBe(401);
    expect(ran).toEqual([]);
    expect((await call('GET', '/signed-in', learner)).json()).toEqual({ caller: learner.id });
    expect((await call('GET', '/signed-in', admin)).json()).toEqual({ caller: admin.id });
  });

  it('public: answers anyone, and its handler has no caller even when a token is sent', async ({ call }) => {
    expect((await call('GET', '/public')).json()).toEqual({ caller: null });
    expect((await call('GET', '/public', admin)).json()).toEqual({ caller: null });
  });
});

describe('a REST route that declares no access', () => {
  /** Starts a scope with the access rule and the given route; resolves when the app is ready. */
  async function start(addRoute: (scope: FastifyInstance) => void): Promise<void> {
    const open = Fastify();
    try {
      await open.register(async (scope) => {
        enforceRouteAccess(scope, async () => null);
        addRoute(scope);
      });
      await open.ready();
    } finally {
      await open.close();
    }
  }

  it('cannot be registered: the app does not start', async () => {
    await expect(start((scope) => scope.get('/forgotten', async () => ({ open: true })))).rejects.toThrow('GET /forgotten declares no access');
  });

  it('cannot be registered with an access that is not one of the four either', async () => {
    const misspelt = { config: { access: 'signed in' as 'signed-in' } };
    await expect(start((scope) => scope.get('/misspelt', misspelt, async () => ({ open: true })))).rejects.toThrow('GET /misspelt declares no access');
  });

  it('registers when it declares one', async () => {
    await expect(start((scope) => scope.get('/declared', { config: { access: 'public' } }, async () => ({})))).resolves.toBeUndefined();
  });
});

import { TRPCError } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify from 'fastify';
import { z } from 'zod';
import { createUser } from '../../testing/factories.ts';
import { AppError } from '../lib/errors.ts';
import type { TSessionUser } from '../lib/session-user.ts';
import { signAccessToken } from '../lib/tokens.ts';
import { createContextFactory } from './context.ts';
import { authedProcedure, createCallerFactory, createRouter, publicProcedure, staffProcedure } from './init.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { afterAll, describe, expect, test } from '../../testing/portal-test.ts';

/** A router that exercises the shared procedures the features build on. */
const probeRouter = createRouter({
  whoami: authedProcedure.query(({ ctx }) => ({ id: ctx.user.id, role: ctx.user.role })),
  approveOnly: staffProcedure('accounts.approve').query(({ ctx }) => ctx.actor),
  conflict: publicProcedure.mutation(() => {
    throw new AppError('CONFLICT', 'Already enrolled.', { fields: { courseId: 'Already enrolled.' } });
  }),
  crash: publicProcedure.query(() => {
    throw new Error('database password is hunter2');
  }),
  echo: publicProcedure.input(z.object({ n: z.number() })).query(({ input }) => input.n),
});

const http = Fastify();
afterAll(async () => {
  await http.close();
});

const it = test
  .extend('probeAs', { scope: 'file' }, ({ portal }) => (user: TSessionUser | null) =>
    createCallerFactory(probeRouter)({ deps: portal.runtime, user, ip: '127.0.0.1', requestId: 't', setCookie: () => {} }));

it.beforeAll(async ({ portal }) => {
  await http.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: { router: probeRouter, createContext: createContextFactory(portal.runtime) },
  });
});

describe('procedures', () => {
  it('refuses a visitor with UNAUTHORIZED and a learner on staff procedures with FORBIDDEN', async ({ probeAs }) => {
    await expect(probeAs(null).whoami()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const learner: TSessionUser = { id: 'u1', email: 'l@example.com', name: 'L', role: 'learner', staffRole: null, verified: true, approved: true, secondFactor: 'waived' };
    await expect(probeAs(learner).approveOnly()).rejects.toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.common.forbidden });
  });

  it('lets in staff whose role holds the permission, once signed in with the second factor, and names them as the actor', async ({ probeAs }) => {
    const staff = (staffRole: TSessionUser['staffRole'], secondFactor: TSessionUser['secondFactor'] = 'passed'): TSessionUser => ({
      id: 'u2', email: 's@example.com', name: 'Meera Rao', role: 'admin', staffRole, verified: true, approved: true, secondFactor,
    });
    expect(await probeAs(staff('registrar')).approveOnly()).toEqual({ id: 'u2', name: 'Meera Rao', staffRole: 'registrar', address: '127.0.0.1' });
    expect(await probeAs(staff('owner', 'waived')).approveOnly()).toMatchObject({ staffRole: 'owner' });
    await expect(probeAs(staff('instructor')).approveOnly()).rejects.toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.common.notForYourRole });
    await expect(probeAs(staff('auditor')).approveOnly()).rejects.toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.common.notForYourRole });
    await expect(probeAs(staff('owner', null)).approveOnly()).rejects.toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.common.secondFactorNeeded });
  });

  it('turns an AppError into the tRPC error with its code, message and fields', async ({ probeAs }) => {
    const error = await probeAs(null)
      .conflict()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'Already enrolled.' });
    const res = await http.inject({ method: 'POST', url: '/trpc/conflict', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.data.fields).toEqual({ courseId: 'Already enrolled.' });
  });

  it('hides the details of an unexpected error', async () => {
    const res = await http.inject('/trpc/crash');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
  });

  it('answers invalid input with 400', async () => {
    const res = await http.inject(`/trpc/echo?input=${encodeURIComponent(JSON.stringify({ n: 'x' }))}`);
    expect(res.statusCode).toBe(400);
  });
});

describe('the session behind a bearer token', () => {
  it('reads the role from the database, not from the token', async ({ db, portal }) => {
    const user = await createUser(db, { role: 'learner' });
    // A token claiming admin for a learner (as if the role changed after it was issued).
    const token = signAccessToken({ sub: user.id, role: 'admin', mf: 'passed' }, portal.runtime.jwtSecret, 900);
    const who = await http.inject({ url: '/trpc/whoami', headers: { authorization: `Bearer ${token}` } });
    expect(who.json().result.data).toEqual({ id: user.id, role: 'learner' });
    const admin = await http.inject({ url: '/trpc/approveOnly', headers: { authorization: `Bearer ${token}` } });
    expect(admin.statusCode).toBe(403);
  });

  it('treats a token signed with another secret, or for a missing user, as no session', async ({ db, portal }) => {
    const user = await createUser(db);
    const forged = signAccessToken({ sub: user.id, role: 'learner' }, 'z'.repeat(40), 900);
    const ghost = signAccessToken({ sub: '00000000-0000-4000-8000-000000000000', role: 'admin' }, portal.runtime.jwtSecret, 900);
    for (const token of [forged, ghost, 'garbage']) {
      const res = await http.inject({ url: '/trpc/whoami', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('a throttled tRPC call', () => {
  it('says when to try again in a Retry-After header, like REST', async ({ db, portal }) => {
    const user = await createUser(db);
    const attempt = () =>
      portal.app.inject({
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        payload: { email: user.email, password: 'not-the-password' },
      });
    let last = await attempt();
    for (let i = 0; i < 10 && last.statusCode !== 429; i += 1) last = await attempt();
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

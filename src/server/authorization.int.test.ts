import type { LightMyRequestResponse } from 'fastify';
import { uniqueIp } from '../testing/mailbox.ts';
import { CALLERS, type TCaller } from '../testing/portal-world.ts';
import { watchWrites, writesBetween } from '../testing/writes.ts';
import { PROCEDURES, ROUTES, routeBody, type TEntry, type TOutcome, type TProcedureCall, type TRouteCall } from './authorization.matrix.ts';
import { appRouter } from './router.ts';
import { describe, expect, test } from '../testing/portal-test.ts';

/** Paths that are not routes of their own: the tRPC adapter's (each procedure has its entry). */
const NOT_ROUTES = [/^[A-Z]+ \/trpc\//];

const procedureTypes = Object.fromEntries(
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(([path, procedure]) => [path, procedure._def.type]),
);

type TAnswer = { outcome: TOutcome; status: number; message: string | undefined; writes: string[] };

const outcomeOf = (status: number): TOutcome => (status >= 200 && status < 300 ? 'ok' : (status as TOutcome));

function messageOf(res: LightMyRequestResponse, trpc: boolean): string | undefined {
  try {
    const body = res.json();
    return trpc ? body?.error?.message : body?.message;
  } catch {
    return undefined;
  }
}

const it = test
  .extend('watch', { scope: 'file' }, ({ portal }) => watchWrites(portal))
  .extend('callProcedure', { scope: 'file' }, ({ portal, world }) => async (path: string, call: TProcedureCall, caller: TCaller) => {
    const headers = world.headers(caller);
    const input = call.input === undefined ? undefined : JSON.stringify(call.input);
    if (procedureTypes[path] === 'query') {
      return portal.app.inject({ url: `/trpc/${path}${input ? `?input=${encodeURIComponent(input)}` : ''}`, headers, remoteAddress: uniqueIp() });
    }
    return portal.app.inject({
      method: 'POST',
      url: `/trpc/${path}`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: input ?? '',
      remoteAddress: uniqueIp(),
    });
  })
  .extend('callRoute', { scope: 'file' }, ({ portal, world }) => async (route: string, call: TRouteCall, caller: TCaller) => {
    const method = route.split(' ')[0] as 'GET' | 'POST' | 'PUT';
    const body = routeBody(call);
    return portal.app.inject({ method, url: call.url, headers: { ...body.headers, ...world.headers(caller) }, payload: body.payload, remoteAddress: uniqueIp() });
  })
  /** Runs one entry as every caller: each answer, and what the call wrote. */
  .extend('runEntry', { scope: 'file' }, ({ portal, watch, world }) => async <C>(
    entry: TEntry<C>,
    send: (call: C, caller: TCaller) => Promise<LightMyRequestResponse>,
    trpc: boolean,
  ): Promise<Record<TCaller, TAnswer>> => {
    const answers = {} as Record<TCaller, TAnswer>;
    for (const caller of CALLERS) {
      const call = (await entry.call?.(world, caller)) ?? ({} as C);
      const before = await watch.snapshot();
      const res = await send(call, caller);
      // A job the call queued runs now, so its writes land before the next count.
      await portal.drainJobs();
      const writes = writesBetween(before, await watch.snapshot());
      answers[caller] = { outcome: outcomeOf(res.statusCode), status: res.statusCode, message: messageOf(res, trpc), writes };
    }
    return answers;
  })
  .extend('checkEntry', { scope: 'file' }, ({ watch, runEntry, world }) => async <C>(
    name: string,
    entry: TEntry<C>,
    send: (call: C, caller: TCaller) => Promise<LightMyRequestResponse>,
    trpc: boolean,
  ) => {
    const answers = await runEntry(entry, send, trpc);
    const got = Object.fromEntries(CALLERS.map((caller) => [caller, answers[caller].outcome]));
    expect(got, `${name}: answers per caller (messages: ${JSON.stringify(Object.fromEntries(CALLERS.map((c) => [c, answers[c].message])))})`).toEqual(
      entry.expect,
    );
    for (const caller of CALLERS) {
      const answer = answers[caller];
      if (answer.outcome === 'ok') continue;
      expect(answer.message, `${name} as ${caller}: a refusal says why`).toEqual(expect.any(String));
      expect(answer.writes, `${name} as ${caller}: a refused call writes nothing and queues nothing`).toEqual([]);
    }
    if (entry.missing) {
      const missingCall = await entry.missing(world);
      for (const caller of CALLERS) {
        if (caller === 'anonymous' || entry.expect[caller] === 'ok') continue;
        const before = await watch.snapshot();
        const res = await send(missingCall, caller);
        expect(writesBetween(before, await watch.snapshot()), `${name}: a missing one as ${caller} writes nothing`).toEqual([]);
        expect(
          { status: answers[caller].status, message: answers[caller].message },
          `${name}: the learner's as ${caller} answers exactly as a missing one`,
        ).toEqual({ status: res.statusCode, message: messageOf(res, trpc) });
      }
    }
  });

// Seeding the world and starting the count of writes take longer than a test may.
it.beforeAll(({ world, watch }) => {
  expect([world, watch]).not.toContain(undefined);
}, 120_000);

describe('the authorization matrix', () => {
  it('has an entry for every procedure of the root router, and none for a procedure that is gone', () => {
    const paths = Object.keys(procedureTypes);
    const missing = paths.filter((path) => !(path in PROCEDURES));
    const stale = Object.keys(PROCEDURES).filter((path) => !(path in procedureTypes));
    expect(
      missing,
      `Procedures without an entry: add each to PROCEDURES in src/server/authorization.matrix.ts, e.g.\n${missing
        .map((path) => `  '${path}': { expect: SIGNED_IN /* or PUBLIC, ADMIN, OWNER_OR_ADMIN, signedIn({...}) */, call: (w, caller) => ({ input: ... }) },`)
        .join('\n')}\n`,
    ).toEqual([]);
    expect(stale, 'Entries in PROCEDURES for procedures the router no longer has: remove them').toEqual([]);
  });

  it('has an entry for every HTTP route of the app, and none for a route that is gone', ({ portal }) => {
    const routes = portal.routes.filter((route) => !NOT_ROUTES.some((pattern) => pattern.test(route)));
    const missing = routes.filter((route) => !(route in ROUTES));
    const stale = Object.keys(ROUTES).filter((route) => !routes.includes(route));
    expect(
      missing,
      `Routes without an entry: add each to ROUTES in src/server/authorization.matrix.ts, e.g.\n${missing
        .map((route) => `  '${route}': { expect: SIGNED_IN /* or PUBLIC, ADMIN, OWNER_OR_ADMIN, signedIn({...}) */, call: (w, caller) => ({ url: ... }) },`)
        .join('\n')}\n`,
    ).toEqual([]);
    expect(stale, 'Entries in ROUTES for routes the app no longer has: remove them').toEqual([]);
  });

  describe('tRPC procedures', () => {
    it.for(Object.entries(PROCEDURES))('%s', async ([path, entry], { checkEntry, callProcedure }) => {
      await checkEntry(path, entry, (call, caller) => callProcedure(path, call, caller), true);
    });
  });

  describe('HTTP routes', () => {
    it.for(Object.entries(ROUTES))('%s', async ([route, entry], { checkEntry, callRoute }) => {
      await checkEntry(route, entry, (call, caller) => callRoute(route, call, caller), false);
    });
  });
});

import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import { brokenPercent, fromSchema, hostileText, urlText, hostileValue, malformedJson, mutate, mutation, type TJsonSchema } from '../testing/fuzz.ts';
import { uniqueIp } from '../testing/mailbox.ts';
import { form, PNG, type TFormPart } from '../testing/multipart.ts';
import { afterAll, describe, expect, test } from '../testing/portal-test.ts';
import type { TCaller } from '../testing/portal-world.ts';
import { watchWrites, writesBetween, type TWriteSnapshot } from '../testing/writes.ts';
import { PROCEDURES, ROUTES, type TEntry, type TExpect } from './authorization.matrix.ts';
import { appRouter } from './router.ts';

/**
 * Bad input, generated: every procedure's input schema and every route's body, query and path,
 * broken in every way fast-check can think of. Whatever comes, the answer is below 500, is JSON
 * with a message when it refuses, and a refusal writes nothing (no row, no file, no job).
 *
 * One seed per run (FUZZ_SEED to replay one); FUZZ_SCALE multiplies the number of cases.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS_PER_PROCEDURE = Math.round(140 * SCALE);
const RUNS_PER_ROUTE = Math.round(75 * SCALE);

type TProcedure = { _def: { type: 'query' | 'mutation'; inputs: z.ZodType[] } };
const procedures = appRouter._def.procedures as unknown as Record<string, TProcedure>;

let last: TWriteSnapshot;
let cases = 0;
const slowest: Array<{ ms: number; what: string }> = [];
let injectMs = 0;
let countingMs = 0;
const started = performance.now();

afterAll(() => {
  process.stdout.write(`[fuzz] seed ${SEED}: ${cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  if (process.env.FUZZ_SLOWEST) process.stdout.write(`requests ${Math.round(injectMs)} ms, counting ${Math.round(countingMs)} ms; ${JSON.stringify(slowest.slice(0, 8))}\n`);
});

/** Who the input is tried as: someone the call is open to, so the input reaches its schema. */
function callerFor(expect: TExpect): TCaller {
  for (const caller of ['owner', 'learner', 'anonymous'] as const) if (![401, 403, 404].includes(expect[caller] as number)) return caller;
  return 'owner';
}

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);

/** Runs a property with this run's seed; a failure names the seed to replay it. */
async function run<T>(arbitrary: fc.Arbitrary<T>, numRuns: number, send: (value: T) => Promise<void>) {
  const details = await fc.check(fc.asyncProperty(arbitrary, send), { seed: SEED, numRuns, endOnFailure: true });
  if (details.failed) {
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`fuzz failed (replay with FUZZ_SEED=${SEED}; path ${details.counterexamplePath}): ${error}`);
  }
}

const CONTENT_TYPES = ['application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=utf-16', 'multipart/form-data', undefined];

function jsonSchemaOf(procedure: TProcedure): TJsonSchema | undefined {
  const schema = procedure._def.inputs[0];
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as TJsonSchema;
  } catch {
    return undefined;
  }
}

/** What a procedure gets: its schema's shape with a change, anything at all, or text that is not JSON. */
function procedureInput(procedure: TProcedure) {
  const shaped = fromSchema(jsonSchemaOf(procedure));
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(shaped, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([value, changes]) => JSON.stringify(changes.reduce(mutate, value)) ?? 'null') },
    { weight: 2, arbitrary: hostileValue.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: shaped.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: malformedJson },
  );
}

const it = test
  .extend('watch', { scope: 'file' }, ({ portal }) => watchWrites(portal, { digests: false }))
  /** Sends one case and checks its answer and what it wrote. */
  .extend('check', { scope: 'file' }, ({ portal, watch }) => async (request: InjectOptions, trpc: boolean): Promise<void> => {
    const began = performance.now();
    const res: LightMyRequestResponse = await portal.app.inject({ ...request, remoteAddress: uniqueIp() });
    const took = performance.now() - began;
    if (took > (slowest[0]?.ms ?? 0)) slowest.unshift({ ms: Math.round(took), what: `${request.method} ${String(request.url).slice(0, 80)}` });
    const counted = performance.now();
    await portal.drainJobs();
    const now = await watch.snapshot();
    countingMs += performance.now() - counted;
    injectMs += took;
    const writes = writesBetween(last, now);
    last = now;
    cases += 1;
    const what = `${request.method ?? 'GET'} ${short(String(request.url))} ${short(String(request.payload ?? ''))} → ${res.statusCode} ${short(res.body)}`;
    if (res.statusCode >= 500) throw new Error(`a server error: ${what}`);
    if (res.statusCode < 400) return;
    let messages: unknown[];
    try {
      const body = res.json();
      // tRPC answers a batch with one answer per call; what the HTTP layer refuses has a plain message.
      messages = trpc && Array.isArray(body) ? body.map((answer) => answer?.error?.message ?? 'ok') : [body?.error?.message ?? body?.message];
    } catch {
      throw new Error(`a refusal that is not JSON: ${what}`);
    }
    if (messages.some((message) => typeof message !== 'string' || message === '')) throw new Error(`a refusal without a message: ${what}`);
    if (writes.length > 0) throw new Error(`a refusal wrote ${writes.join(', ')}: ${what}`);
  });

// The world is seeded, and the count of writes started, before the first case, within a hook's time.
it.beforeAll(async ({ world, watch }) => {
  expect(world.users.owner).toBeDefined();
  last = await watch.snapshot();
}, 120_000);

describe('bad input to every tRPC procedure', () => {
  it.for(Object.keys(procedures))('%s', async (path, { world, check }) => {
    const procedure = procedures[path]!;
    const caller = callerFor((PROCEDURES[path] as TEntry<unknown> | undefined)?.expect ?? ({} as TExpect));
    const headers = () => world.headers(caller);
    if (procedure._def.type === 'query') {
      await run(fc.tuple(procedureInput(procedure), fc.boolean()), RUNS_PER_PROCEDURE, ([input, batch]) =>
        check(
          {
            method: 'GET',
            url: batch ? `/trpc/${path},${path}?batch=1&input=${encodeURIComponent(`{"0":${input},"1":${input}}`)}` : `/trpc/${path}?input=${encodeURIComponent(input)}`,
            headers: headers(),
          },
          true,
        ),
      );
    } else {
      await run(fc.tuple(procedureInput(procedure), fc.constantFrom(...CONTENT_TYPES)), RUNS_PER_PROCEDURE, ([input, type]) =>
        check({ method: 'POST', url: `/trpc/${path}`, headers: { ...headers(), ...(type ? { 'content-type': type } : {}) }, payload: input }, true),
      );
    }
  });
});

/** A path parameter: the good one, or something hostile in its place. */
const paramValue = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: hostileText.filter((text) => text.length > 0) },
  { weight: 1, arbitrary: brokenPercent.map((broken) => ({ raw: broken })) },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2e%2e', 'null', '0', '-1', '00000000-0000-0000-0000-000000000000', 'x'.repeat(4000), '__proto__', 'constructor') },
);

/** Query parameters the list routes read, and some nobody reads. */
const queryString = fc.oneof(
  { weight: 1, arbitrary: brokenPercent.map((broken) => `search=${broken}&page=1`) },
  { weight: 5, arbitrary: fc
  .array(
    fc.tuple(
      fc.constantFrom('search', 'page', 'limit', 'pageSize', 'status', 'expires', 'signature', 'viewer', '__proto__[role]', 'search[]', 'page[x]', 'constructor[prototype]', ''),
      fc.oneof(hostileText, fc.constantFrom('1', '0', '-1', '1e9', '99999999999999999999', 'NaN', '', 'x'.repeat(5000))),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${urlText(key)}=${urlText(value)}`).join('&')) },
);

/** Multipart bodies: parts dropped, extra parts, oversized parts, hostile names and types, broken framing. */
function multipartBody(base: TFormPart[]) {
  const extraPart = fc.oneof(
    hostileText.map((value): TFormPart => ({ name: 'unexpected', value })),
    fc.constantFrom(...base.map((part) => part.name)).map((name): TFormPart => ({ name, value: 'again' })),
    fc.constantFrom(...base.map((part) => part.name), 'unexpected').map((name): TFormPart => ({ name, file: PNG, filename: 'extra.png', type: 'image/png' })),
    fc.integer({ min: 200_000, max: 3_000_000 }).map((n): TFormPart => ({ name: base[0]?.name ?? 'title', value: 'x'.repeat(n) })),
    fc.integer({ min: 6_000_000, max: 12_000_000 }).map((n): TFormPart => ({ name: base.find((p) => p.file)?.name ?? 'file', file: Buffer.alloc(n, 1), filename: 'big.bin', type: 'application/octet-stream' })),
    fc.tuple(hostileText, hostileText).map(([filename, type]): TFormPart => ({ name: base.find((p) => p.file)?.name ?? 'file', file: PNG, filename, type: type.replace(/[\r\n]/g, '') || 'x' })),
  );
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(fc.subarray(base), fc.array(extraPart, { maxLength: 2 }), fc.array(fc.tuple(fc.nat(), hostileValue), { maxLength: 2 }))
        .map(([kept, extra, changes]) => {
          const parts = [...kept, ...extra].map((part) => ({ ...part }));
          for (const [index, value] of changes) {
            const part = parts[index % Math.max(parts.length, 1)];
            if (part && !part.file) part.value = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
          }
          const body = form(parts);
          return { payload: body.payload, type: body.headers['content-type'] };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(), fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=other', 'multipart/form-data; boundary=')).map(([cut, type]) => {
        const body = form(base);
        return { payload: body.payload.subarray(0, cut % body.payload.length), type: type === 'multipart/form-data' ? body.headers['content-type'] : type };
      }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ payload: JSON.stringify(value) ?? 'null', type: 'application/json' })) },
  );
}

/** Bodies for a JSON route: its good body changed, anything at all, or text that is not JSON, under any Content-Type. */
function jsonBody(base: unknown) {
  return fc.tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((changes) => JSON.stringify(changes.reduce(mutate, base ?? {})) ?? 'null') },
      { weight: 2, arbitrary: hostileValue.map((value) => JSON.stringify(value) ?? 'null') },
      { weight: 2, arbitrary: malformedJson },
    ),
    fc.constantFrom(...CONTENT_TYPES),
  ).map(([payload, type]) => ({ payload, type }));
}

describe('bad input to every HTTP route', () => {
  it.for(Object.keys(ROUTES))('%s', async (route, { world, watch, check }) => {
    const entry = ROUTES[route]!;
    const [method, pattern] = route.split(' ') as ['GET' | 'POST' | 'PUT', string];
    const caller = callerFor(entry.expect);
    const base = (await entry.call?.(world, caller)) ?? { url: pattern };
    const baseUrl = new URL(base.url, 'http://portal');
    const baseSegments = baseUrl.pathname.split('/');
    const params = pattern.split('/').map((segment, index) => (segment.startsWith(':') ? index : -1)).filter((index) => index >= 0);
    const body = base.parts ? multipartBody(base.parts) : method === 'GET' ? fc.constant(undefined) : jsonBody(base.json);
    // Making the good call's targets wrote rows: the cases are counted from here.
    last = await watch.snapshot();
    await run(
      fc.record({ params: fc.array(paramValue, { minLength: params.length, maxLength: params.length }), query: fc.option(queryString), body }),
      RUNS_PER_ROUTE,
      async ({ params: values, query, body: sent }) => {
        const segments = [...baseSegments];
        params.forEach((index, i) => {
          const value = values[i];
          if (value !== undefined) segments[index] = typeof value === 'string' ? urlText(value) : value.raw;
        });
        const search = query === null ? baseUrl.search : `?${query}`;
        await check(
          {
            method,
            url: `${segments.join('/')}${search}`,
            headers: { ...base.headers, ...world.headers(caller), ...(sent?.type ? { 'content-type': sent.type } : {}) },
            ...(sent ? { payload: sent.payload } : {}),
          },
          false,
        );
      },
    );
  });

  it('ran at least 10 000 cases', () => {
    expect(cases).toBeGreaterThanOrEqual(10_000 * Math.min(SCALE, 1));
  });
});

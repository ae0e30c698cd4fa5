import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { like } from 'drizzle-orm';
import { vi } from 'vitest';
import { TRPC_MAX_BATCH_SIZE } from '../shared/constants.ts';
import { MESSAGES } from '../shared/messages.ts';
import { SITE_CONFIG_MARKER } from '../shared/site-config.ts';
import { createCourse } from '../testing/factories.ts';
import { mails } from './db/schema.ts';
import { CATALOGUE_RECHECK_MS } from './modules/courses/catalogue.service.ts';
import { describe, expect, test } from '../testing/portal-test.ts';

const APP_SCRIPT = `console.log(${JSON.stringify('a ship-to-shore application '.repeat(40))});`;

/** A stand-in for the built client: the server's job is to serve it, not to build it. */
function standInClient(): string {
  const clientDir = path.join(process.env.TMPDIR ?? '/tmp', `client-${process.pid}-${Date.now()}`);
  mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><html><head><script id="site-config" type="application/json">${SITE_CONFIG_MARKER}</script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), APP_SCRIPT);
  // The .br and .gz copies the build writes beside each text file.
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(APP_SCRIPT));
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.gz'), gzipSync(APP_SCRIPT));
  // The build's manifest: the entry, and the files of two screens' chunks (config/routes.ts) with one they share.
  mkdirSync(path.join(clientDir, '.vite'));
  writeFileSync(
    path.join(clientDir, '.vite', 'manifest.json'),
    JSON.stringify({
      'main.tsx': { file: 'assets/app-abc123.js', isEntry: true },
      _c1: { file: 'assets/courses-1.js', name: 'courses', imports: ['_s2'] },
      _s2: { file: 'assets/shared-2.js', name: 'account+courses' },
      _a3: { file: 'assets/account-3.js', name: 'account', imports: ['_s2'] },
    }),
  );
  return clientDir;
}

test.override({
  portalOptions: {
    clientDir: standInClient(),
    env: { ACADEMY_NAME: 'Harbour </script><script>alert(1)</script> Academy', BODY_LIMIT_BYTES: '2048' },
  },
});

const it = test.extend('page', { scope: 'file' }, ({ portal }) => async (url: string) => (await portal.app.inject({ url, headers: { accept: 'text/html' } })).body);

describe('health', () => {
  it('answers /healthz and /readyz with the backends in use', async ({ portal }) => {
    expect((await portal.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await portal.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: portal.runtime.database.kind });
  });
});

describe('security headers and request ids', () => {
  it('a page gets CSP, HSTS, nosniff, a referrer policy and frame-ancestors', async ({ portal }) => {
    const res = await portal.app.inject({ url: '/courses', headers: { accept: 'text/html' } });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it("the API's JSON lets nothing load or frame it and carries none of a document's other policies", async ({ portal }) => {
    for (const url of ['/healthz', '/api/courses/active', '/trpc/site.config', '/api/no/such/thing']) {
      const res = await portal.app.inject(url);
      expect(res.headers['content-type'], url).toContain('application/json');
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['strict-transport-security'], url).toContain('max-age=31536000');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      for (const documentOnly of ['referrer-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-permitted-cross-domain-policies', 'x-xss-protection']) {
        expect(res.headers[documentOnly], `${url} ${documentOnly}`).toBeUndefined();
      }
    }
    // The API's documentation page is a document: it has the page's policies (its inline style needs them).
    const docs = await portal.app.inject('/api/docs');
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(docs.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it("the build's hashed files carry what applies to a subresource, not the document's policies", async ({ portal }) => {
    const res = await portal.app.inject('/assets/app-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    // A page still has them all.
    const page = await portal.app.inject({ url: '/courses', headers: { accept: 'text/html' } });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('echoes a sane x-request-id and replaces a hostile one', async ({ portal }) => {
    const kept = await portal.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await portal.app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b\n<script>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('bad input', () => {
  it('answers an unknown /api path with 404 JSON', async ({ portal }) => {
    const res = await portal.app.inject('/api/no/such/thing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: MESSAGES.common.routeNotFound });
  });

  it('answers an unknown /api path with 404 JSON even for a browser', async ({ portal }) => {
    const res = await portal.app.inject({ url: '/api/nothing', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('refuses malformed JSON with 400 and a clear message', async ({ portal }) => {
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/site-config',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MESSAGES.common.malformedJson });
  });

  it('refuses an oversized body with 413', async ({ portal }) => {
    const res = await portal.app.inject({
      method: 'POST',
      url: '/trpc/site.config',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ filler: 'x'.repeat(10_000) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('refuses an oversized body on /api with 413 and the catalogue message', async ({ portal }) => {
    const res = await portal.app.inject({
      method: 'POST',
      url: '/api/site-config',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ filler: 'x'.repeat(10_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: MESSAGES.common.payloadTooLarge });
  });

  it('refuses a form body on a tRPC call with 415: procedures take JSON only', async ({ portal }) => {
    // A whole, valid contact message as a form: refused, and no mail of it written. Judged by its
    // own words, since other test files write mails to the same database meanwhile.
    const marker = `Form-bodied message ${randomUUID()}`;
    const field = (name: string, value: string) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const form = `${field('name', 'Ravi Menon')}${field('email', 'ravi.menon@example.com')}${field('message', marker)}--x--\r\n`;
    for (const url of ['/trpc/contact.send', '/trpc/auth.login', '/trpc/site.config,contact.send?batch=1']) {
      const res = await portal.app.inject({ method: 'POST', url, headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: form });
      expect(res.statusCode, url).toBe(415);
      expect(res.json(), url).toEqual({ message: MESSAGES.common.unsupportedMediaType });
    }
    expect(await portal.runtime.db.$count(mails, like(mails.text, `%${marker}%`))).toBe(0);
  });
});

describe('the client', () => {
  it('serves index.html with the configuration for a deep link', async ({ portal }) => {
    for (const url of ['/', '/admin-dashboard/courses', '/training/123']) {
      const res = await portal.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('"city":"Mumbai"');
      // The entry's script, named by the build's manifest.
      expect(res.body).toContain('<script type="module" crossorigin src="/assets/app-abc123.js"></script>');
    }
  });

  it('escapes configured values so they cannot close the script element', async ({ portal }) => {
    const res = await portal.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.body).not.toContain('</script><script>alert(1)');
    expect(res.body).toContain('\\u003c/script>');
  });

  it("keeps the build's manifest to itself", async ({ portal }) => {
    for (const accept of ['application/json', 'text/html']) {
      const res = await portal.app.inject({ url: '/.vite/manifest.json', headers: { accept } });
      expect(res.body, accept).not.toContain('isEntry');
    }
  });

  it('serves hashed assets as immutable', async ({ portal }) => {
    const res = await portal.app.inject('/assets/app-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends each asset and the page compressed: brotli where accepted, else gzip, else plain, varying on Accept-Encoding', async ({ portal }) => {
    const asBrotli = await portal.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(asBrotli.headers['content-encoding']).toBe('br');
    expect(asBrotli.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(asBrotli.rawPayload).toString()).toBe(APP_SCRIPT);
    expect(asBrotli.rawPayload.length).toBeLessThan(APP_SCRIPT.length / 4);

    const asGzip = await portal.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(asGzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(asGzip.rawPayload).toString()).toBe(APP_SCRIPT);

    const plain = await portal.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_SCRIPT);

    const page = await portal.app.inject({ url: '/courses', headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('"city":"Mumbai"');
    const pageGzip = await portal.app.inject({ url: '/courses', headers: { accept: 'text/html', 'accept-encoding': 'gzip;q=1, br;q=0' } });
    expect(pageGzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(pageGzip.rawPayload).toString()).toContain('"city":"Mumbai"');
  });

  it('answers a missing asset with 404, not the page', async ({ portal }) => {
    const res = await portal.app.inject({ method: 'POST', url: '/assets/missing.js' });
    expect(res.statusCode).toBe(404);
  });
});

describe('tRPC batches', () => {
  const batch = (procedure: string, count: number) => Array.from({ length: count }, () => procedure).join(',');

  it(`carry at most ${TRPC_MAX_BATCH_SIZE} procedures`, async ({ portal }) => {
    const input = encodeURIComponent(JSON.stringify({}));
    const full = await portal.app.inject(`/trpc/${batch('site.config', TRPC_MAX_BATCH_SIZE)}?batch=1&input=${input}`);
    expect(full.statusCode).toBe(200);
    expect(full.json()).toHaveLength(TRPC_MAX_BATCH_SIZE);
    const over = await portal.app.inject(`/trpc/${batch('site.config', TRPC_MAX_BATCH_SIZE + 1)}?batch=1&input=${input}`);
    expect(over.statusCode).toBe(400);
  });

  it('refuse a larger batch before any of its procedures runs', async ({ portal }) => {
    const before = (await portal.runtime.db.select({ id: mails.id }).from(mails)).length;
    const message = { name: 'Ravi Menon', email: 'ravi@example.com', message: 'When does the next batch start?' };
    const inputs = Object.fromEntries(Array.from({ length: TRPC_MAX_BATCH_SIZE + 1 }, (_, index) => [index, message]));
    const res = await portal.app.inject({
      method: 'POST',
      url: `/trpc/${batch('contact.send', TRPC_MAX_BATCH_SIZE + 1)}?batch=1`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(inputs),
    });
    expect(res.statusCode).toBe(400);
    expect((await portal.runtime.db.select({ id: mails.id }).from(mails)).length).toBe(before);
  });
});

describe('pages of client routes', () => {
  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

  it("preload the route's chunks, whatever the case of the address, and nothing on other pages", async ({ page }) => {
    expect(preloads(await page('/login'))).toEqual(['/assets/account-3.js', '/assets/shared-2.js']);
    expect(preloads(await page('/LOGIN/'))).toEqual(['/assets/account-3.js', '/assets/shared-2.js']);
    expect(preloads(await page('/'))).toEqual([]);
    expect(preloads(await page('/no-such-page'))).toEqual([]);
  });

  it('/courses carries the catalogue, safe inside its script element, and preloads the first pictures', async ({ page, portal }) => {
    // The catalogue is re-read at most once a second, on the portal's clock: the test's here.
    vi.useFakeTimers({ toFake: ['Date'] });
    const course = await createCourse(portal.runtime.db, { title: 'Radar </script><script>alert(1)</script> Observer', imageFile: 'radar.webp', imageWidth: 640, imageHeight: 320 });
    vi.setSystemTime(Date.now() + CATALOGUE_RECHECK_MS);
    const html = await page('/courses').finally(() => vi.useRealTimers());
    expect(preloads(html)).toEqual(['/assets/courses-1.js', '/assets/shared-2.js']);
    expect(html).not.toContain('</script><script>alert(1)');
    const data = /<script id="catalogue-data" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
    const courses = JSON.parse(data ?? 'null') as Array<{ id: string; title: string }>;
    expect(courses).toEqual(await portal.caller().courses.catalogue());
    expect(courses.map((c) => c.id)).toContain(course.id);
    expect(html).toContain('<link rel="preload" as="image" href="/api/uploads/courseImg/radar.webp" fetchpriority="high">');
  });
});

describe('API answers', () => {
  it('come compressed when they are worth it, and plain to a client that does not accept it', async ({ portal }) => {
    const url = `/trpc/${Array.from({ length: 8 }, () => 'site.config').join(',')}?batch=1&input=${encodeURIComponent('{}')}`;
    const plain = await portal.app.inject(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(512);
    const brotli = await portal.app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['vary']).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(plain.json());
    const gzip = await portal.app.inject({ url: '/api/site-config', headers: { 'accept-encoding': 'gzip' } });
    // A small answer is not worth compressing.
    expect(gzip.headers['content-encoding']).toBeUndefined();
  });
});

describe('site configuration', () => {
  it('is the same through tRPC, the caller and REST', async ({ portal }) => {
    const viaCaller = await portal.caller().site.config();
    expect(viaCaller.city).toBe('Mumbai');
    const viaHttp = await portal.app.inject('/trpc/site.config');
    expect(viaHttp.json().result.data).toEqual(viaCaller);
    const viaRest = await portal.app.inject('/api/site-config');
    expect(viaRest.json()).toEqual({ data: viaCaller });
  });
});

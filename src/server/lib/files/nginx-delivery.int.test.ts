import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { createCourse, createEnrolment, createUser, TEST_PASSWORD } from '../../../testing/factories.ts';
import { uniqueEmail, uniqueIp } from '../../../testing/mailbox.ts';
import { makeClip } from '../../../testing/media.ts';
import { form } from '../../../testing/multipart.ts';
import { NGINX, productionNginxConfig } from '../../../testing/nginx.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { INTERNAL_FILES_PREFIX } from './open-storage.ts';

/*
 * The portal with STREAM_DELIVERY=x-accel behind a real nginx running deploy/nginx.conf (its
 * addresses and folders pointed at this test's): a viewer's Range request through nginx gets the
 * file's bytes with the portal's headers, a copied link without its stream pass is refused through
 * nginx, and the internal location cannot be reached from outside.
 */
const NO_NGINX = 'nginx is not installed (scripts/ensure-test-tools.sh installs Debian\'s nginx package, as npm test does first)';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// A portal of its own, listening on a port behind nginx, and built only where nginx is installed.
let portal: TestPortal;
let nginx: ChildProcess | undefined;
let runDir: string;
let base: string;

beforeAll(async () => {
  runDir = mkdtempSync(path.join(tmpdir(), 'portal-nginx-'));
  if (!NGINX) return;
  portal = await createTestPortal({ env: { STREAM_DELIVERY: 'x-accel', TRUST_PROXY: 'loopback' } });
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  const portalPort = (portal.app.server.address() as { port: number }).port;
  const port = await freePort();
  const configFile = path.join(runDir, 'nginx.conf');
  writeFileSync(configFile, productionNginxConfig({ portalPort, port, dataDir: portal.dataDir, runDir }));
  const check = spawnSync(NGINX, ['-t', '-c', configFile, '-p', runDir], { encoding: 'utf8' });
  expect(check.status, check.stderr).toBe(0);
  expect(check.stderr).toContain('test is successful');
  nginx = spawn(NGINX, ['-c', configFile, '-p', runDir], { stdio: 'ignore' });
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !(await fetch(`${base}/healthz`).then((res) => res.ok, () => false))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 60_000);

afterAll(async () => {
  if (nginx?.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  await portal?.close();
  rmSync(runDir, { recursive: true, force: true });
});

/** A learner's first part: its link, their stream pass, and the file the portal names for nginx. */
async function learnerStream() {
  const { db } = portal.runtime;
  const admin = await createUser(db, { role: 'admin', approvedAt: new Date() });
  const course = await createCourse(db);
  const clip = readFileSync(await makeClip(runDir, 'part.mp4', { width: 320, height: 240, seconds: 2, audio: true }));
  const body = form([
    { name: 'courseId', value: course.id },
    { name: 'title', value: 'Fire drill' },
    { name: 'trainingVideo', file: clip, filename: 'part.mp4', type: 'video/mp4' },
  ]);
  const uploaded = await portal.app.inject({ method: 'POST', url: '/api/trainingVideo', headers: { ...body.headers, authorization: portal.authorization(admin) }, payload: body.payload });
  expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
  await portal.drainJobs();

  const learner = await createUser(db, { email: uniqueEmail('nginx-stream'), approvedAt: new Date() });
  await createEnrolment(db, { userId: learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
    body: JSON.stringify({ email: learner.email, password: TEST_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const list = await fetch(`${base}/api/trainingVideo/${course.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(list.status).toBe(200);
  const url = ((await list.json()) as { data: { trainingVideo: Array<{ url: string }> } }).data.trainingVideo[0]!.url;
  const pass = list.headers.getSetCookie().find((cookie) => cookie.startsWith('stream_pass='))!.split(';')[0]!;
  return { url, pass };
}

describe('the portal behind nginx (STREAM_DELIVERY=x-accel)', () => {
  it('sends a viewer\'s Range request by nginx: 206, the file\'s bytes, the portal\'s headers', async (context) => {
    if (!NGINX) return context.skip(NO_NGINX);
    const { url, pass } = await learnerStream();
    const range = 'bytes=100-355';

    // What the portal itself answers: the headers, and the file for nginx to send.
    const direct = await portal.app.inject({ url, headers: { range, cookie: pass } });
    expect(direct.statusCode).toBe(200);
    const internal = String(direct.headers['x-accel-redirect']);
    expect(internal.startsWith(`${INTERNAL_FILES_PREFIX}/trainingVideo/`)).toBe(true);
    const file = readFileSync(path.join(portal.dataDir, 'files', internal.slice(INTERNAL_FILES_PREFIX.length + 1)));

    const res = await fetch(`${base}${url}`, { headers: { range, cookie: pass } });
    expect(res.status).toBe(206);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(file.subarray(100, 356))).toBe(true);
    expect(res.headers.get('content-range')).toBe(`bytes 100-355/${file.length}`);
    expect(res.headers.get('content-length')).toBe('256');
    expect(res.headers.get('x-accel-redirect')).toBeNull();
    for (const header of [
      'content-type',
      'content-disposition',
      'content-security-policy',
      'x-content-type-options',
      'cross-origin-resource-policy',
      'strict-transport-security',
      'x-frame-options',
      'cache-control',
      'accept-ranges',
      'etag',
      'last-modified',
    ]) {
      expect(res.headers.get(header), header).toBe(direct.headers[header] === undefined ? null : String(direct.headers[header]));
    }
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Each answer's own id, as the portal gives it.
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    // The whole file, as a first request without Range.
    const whole = await fetch(`${base}${url}`, { headers: { cookie: pass } });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true);
  });

  it('refuses a copied link without its stream pass, and hides the internal location', async (context) => {
    if (!NGINX) return context.skip(NO_NGINX);
    const { url, pass } = await learnerStream();
    const copied = await fetch(`${base}${url}`, { headers: { range: 'bytes=0-1023' } });
    expect(copied.status).toBe(403);
    expect(((await copied.json()) as { message: string }).message).toBe(MESSAGES.training.streamRefused);

    const direct = await portal.app.inject({ url, headers: { range: 'bytes=0-9', cookie: pass } });
    const internal = String(direct.headers['x-accel-redirect']);
    for (const headers of [{}, { cookie: pass }] as Array<Record<string, string>>) {
      const outside = await fetch(`${base}${internal}`, { headers });
      expect(outside.status).toBe(404);
      expect(outside.headers.get('content-type')).not.toBe('video/mp4');
    }
  });
});

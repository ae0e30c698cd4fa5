import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStorage } from './open-storage.ts';
import { sendStoredFile } from './send-file.ts';
import type { FileStorage } from './storage.ts';

/*
 * With STREAM_DELIVERY=x-accel the portal answers the headers and names the file for the nginx in
 * front, which sends the bytes and answers the Range itself; whatever nginx would answer otherwise
 * than the portal (an If-Range, several ranges, a range past the end) the portal answers itself.
 * The real nginx in front is in deploy/nginx.int.test.ts.
 */
const name = `${randomUUID()}.mp4`;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
let dataDir: string;
const apps: Record<'node' | 'x-accel', FastifyInstance> = {} as never;

async function appFor(files: FileStorage) {
  const app = Fastify();
  app.get('/video', (request, reply) =>
    sendStoredFile(files, request, reply, { area: 'trainingVideo', name, mime: 'video/mp4', downloadName: 'part.mp4', image: false }, 'private, max-age=600'),
  );
  await app.ready();
  return app;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'delivery-'));
  await mkdir(path.join(dataDir, 'files', 'trainingVideo'), { recursive: true });
  await writeFile(path.join(dataDir, 'files', 'trainingVideo', name), bytes);
  apps.node = await appFor(await openFileStorage({ storageUrl: undefined, dataDir }));
  apps['x-accel'] = await appFor(await openFileStorage({ storageUrl: undefined, dataDir, delivery: 'x-accel' }));
});
afterAll(async () => {
  await Promise.all(Object.values(apps).map((app) => app.close()));
  await rm(dataDir, { recursive: true, force: true });
});

const FILE_HEADERS = ['content-type', 'content-disposition', 'x-content-type-options', 'content-security-policy', 'cross-origin-resource-policy', 'cache-control', 'accept-ranges', 'etag', 'last-modified'];

describe('x-accel delivery', () => {
  it('hands a Range request to nginx with the headers the portal sends itself', async () => {
    const portal = await apps.node.inject({ url: '/video', headers: { range: 'bytes=100-199' } });
    const handed = await apps['x-accel'].inject({ url: '/video', headers: { range: 'bytes=100-199' } });
    expect(portal.statusCode).toBe(206);
    expect(portal.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    expect(portal.headers['x-accel-redirect']).toBeUndefined();

    expect(handed.statusCode).toBe(200);
    expect(handed.headers['x-accel-redirect']).toBe(`/internal/files/trainingVideo/${name}`);
    expect(handed.rawPayload.length).toBe(0);
    // nginx makes Content-Range and the length from the file and the request.
    expect(handed.headers['content-range']).toBeUndefined();
    for (const header of FILE_HEADERS) expect(handed.headers[header], header).toBe(portal.headers[header]);
  });

  it('hands over a whole-file request, and a HEAD', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const handed = await apps['x-accel'].inject({ method, url: '/video' });
      expect(handed.statusCode).toBe(200);
      expect(handed.headers['x-accel-redirect']).toBe(`/internal/files/trainingVideo/${name}`);
    }
  });

  it('answers a copy still good with 304 itself', async () => {
    const first = await apps['x-accel'].inject({ url: '/video' });
    const again = await apps['x-accel'].inject({ url: '/video', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['x-accel-redirect']).toBeUndefined();
  });

  it('answers itself what nginx would answer otherwise', async () => {
    const pastTheEnd = await apps['x-accel'].inject({ url: '/video', headers: { range: 'bytes=5000-' } });
    expect(pastTheEnd.statusCode).toBe(416);
    expect(pastTheEnd.headers['content-range']).toBe('bytes */1000');
    expect(pastTheEnd.headers['x-accel-redirect']).toBeUndefined();

    // Several ranges, a backwards one (nginx: 416), an If-Range: the portal sends the whole file.
    for (const headers of [{ range: 'bytes=0-9,20-29' }, { range: 'bytes=9-0' }, { range: 'bytes=0-9', 'if-range': '"other"' }]) {
      const answer = await apps['x-accel'].inject({ url: '/video', headers });
      expect(answer.statusCode, JSON.stringify(headers)).toBe(200);
      expect(answer.headers['x-accel-redirect']).toBeUndefined();
      expect(answer.rawPayload.equals(bytes)).toBe(true);
    }
  });
});

import { existsSync, readdirSync } from 'node:fs';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { form, PDF, PNG } from '../../../testing/multipart.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { fileUrl } from './file-urls.ts';
import { sendError } from '../http-errors.ts';
import { IMAGE_KINDS } from './file-kinds.ts';
import { readMultipart } from './multipart.ts';

let portal: TestPortal;
let uploads: FastifyInstance;
const storedFiles = (area: string) => {
  const dir = portal.runtime.files.areaDir(area as never);
  return existsSync(dir) ? readdirSync(dir) : [];
};

beforeAll(async () => {
  portal = await createTestPortal();
  // A route shaped like the features' upload routes, to exercise the shared upload reader.
  uploads = Fastify();
  await uploads.register(multipart);
  uploads.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  uploads.post('/upload', async (request) => {
    const result = await readMultipart(request, portal.runtime.files, {
      picture: { area: 'profile_pictures', maxBytes: 1024, kinds: IMAGE_KINDS },
      document: { area: 'id_documents', maxBytes: 4096, kinds: ['pdf', ...IMAGE_KINDS] },
    });
    if (result.fields.fail === 'yes') {
      await result.discard();
      return { discarded: true };
    }
    return { fields: result.fields, files: result.files };
  });
});
afterAll(async () => {
  await uploads.close();
  await portal.close();
});

describe('uploads', () => {
  it('stores accepted files under generated names, typed from their bytes', async () => {
    const res = await uploads.inject({
      method: 'POST',
      url: '/upload',
      ...form([
        { name: 'name', value: 'Arjun' },
        { name: 'picture', file: PNG, filename: 'me.gif', type: 'image/gif' },
        { name: 'document', file: PDF, filename: 'passport.png', type: 'image/png' },
      ]),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.fields).toEqual({ name: 'Arjun' });
    expect(body.files.picture[0]).toMatchObject({ kind: 'png', bytes: PNG.length });
    expect(body.files.picture[0].name).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(body.files.document[0]).toMatchObject({ kind: 'pdf' });
    expect(storedFiles('profile_pictures')).toContain(body.files.picture[0].name);
  });

  it('refuses HTML renamed as an image with 415 and keeps nothing, not even the other file', async () => {
    const before = { pictures: storedFiles('profile_pictures'), documents: storedFiles('id_documents') };
    const res = await uploads.inject({
      method: 'POST',
      url: '/upload',
      ...form([
        { name: 'document', file: PDF, filename: 'passport.pdf', type: 'application/pdf' },
        { name: 'picture', file: Buffer.from('<html><script>alert(1)</script></html>'), filename: 'me.png', type: 'image/png' },
      ]),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: MESSAGES.files.wrongType, errors: { picture: MESSAGES.files.wrongType } });
    expect(storedFiles('profile_pictures')).toEqual(before.pictures);
    expect(storedFiles('id_documents')).toEqual(before.documents);
  });

  it('refuses an oversized file with 413 and leaves no partial file', async () => {
    const before = storedFiles('profile_pictures');
    const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
    const res = await uploads.inject({ method: 'POST', url: '/upload', ...form([{ name: 'picture', file: big }]) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: MESSAGES.files.tooLarge, errors: { picture: MESSAGES.files.tooLarge } });
    expect(storedFiles('profile_pictures')).toEqual(before);
  });

  it('refuses a file field nobody asked for', async () => {
    const res = await uploads.inject({ method: 'POST', url: '/upload', ...form([{ name: 'payload', file: PNG }]) });
    expect(res.statusCode).toBe(400);
  });

  it('refuses an empty file and a request that is not multipart', async () => {
    const empty = await uploads.inject({ method: 'POST', url: '/upload', ...form([{ name: 'picture', file: Buffer.alloc(0), filename: 'x.png' }]) });
    expect(empty.statusCode).toBe(400);
    const json = await uploads.inject({ method: 'POST', url: '/upload', payload: { picture: 'x' } });
    expect(json.statusCode).toBe(415);
  });

  it('removes what it stored when the change does not commit', async () => {
    const before = storedFiles('profile_pictures');
    const res = await uploads.inject({
      method: 'POST',
      url: '/upload',
      ...form([{ name: 'picture', file: PNG }, { name: 'fail', value: 'yes' }]),
    });
    expect(res.json()).toEqual({ discarded: true });
    expect(storedFiles('profile_pictures')).toEqual(before);
  });
});

describe('serving stored files', () => {
  async function storePicture() {
    const res = await uploads.inject({ method: 'POST', url: '/upload', ...form([{ name: 'picture', file: PNG }]) });
    return res.json().files.picture[0].name as string;
  }

  it('serves a private file through a signed URL as data, not as a page', async () => {
    const name = await storePicture();
    const res = await portal.app.inject(fileUrl(portal.runtime, 'profile_pictures', name));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="profile_pictures-/);
    expect(res.headers['cache-control']).toContain('private');
  });

  it('refuses a missing, altered or foreign signature like a missing file', async () => {
    const name = await storePicture();
    const url = fileUrl(portal.runtime, 'profile_pictures', name);
    const altered = url.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    const otherArea = url.replace('/profile_pictures/', '/signatures/');
    for (const candidate of [`/api/files/profile_pictures/${name}`, altered, otherArea]) {
      const res = await portal.app.inject(candidate);
      expect(res.statusCode, candidate).toBe(404);
      expect(res.body).not.toContain('PNG');
    }
  });

  it('refuses an expired signature', async () => {
    const name = await storePicture();
    const url = fileUrl(portal.runtime, 'profile_pictures', name, new Date(Date.now() - 3600_000));
    const res = await portal.app.inject(url);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: MESSAGES.files.linkExpired });
  });

  it('serves only course images without a signature', async () => {
    const name = await storePicture();
    const res = await portal.app.inject(`/api/uploads/profile_pictures/${name}`);
    expect(res.statusCode).toBe(404);
    const traversal = await portal.app.inject('/api/uploads/courseImg/..%2F..%2Fjwt-secret');
    expect(traversal.statusCode).toBe(404);
  });
});

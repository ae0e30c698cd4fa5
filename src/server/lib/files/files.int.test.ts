import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { form, PDF, PNG } from '../../../testing/multipart.ts';
import { readStored, STORAGE_DRIVERS, storedNames } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { fileUrl } from './file-urls.ts';
import { sendError } from '../http-errors.ts';
import { IMAGE_KINDS } from './file-kinds.ts';
import { readMultipart } from './multipart.ts';

// A portal of its own per storage driver (the file's shared portal has one driver).
describe.each(STORAGE_DRIVERS)('files on the %s storage', (driver) => {
  let portal: TestPortal;
  let uploads: FastifyInstance;
  const storedFiles = (area: 'profile_pictures' | 'id_documents') => storedNames(portal.runtime.files, area);

  beforeAll(async () => {
    portal = await createTestPortal({ storage: driver });
    expect(portal.runtime.files.kind).toBe(driver);
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
      expect(await storedFiles('profile_pictures')).toContain(body.files.picture[0].name);
      expect((await readStored(portal.runtime.files, 'profile_pictures', body.files.picture[0].name)).equals(PNG)).toBe(true);
    });

    it('refuses HTML renamed as an image with 415 and keeps nothing, not even the other file', async () => {
      const before = { pictures: await storedFiles('profile_pictures'), documents: await storedFiles('id_documents') };
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
      expect(await storedFiles('profile_pictures')).toEqual(before.pictures);
      expect(await storedFiles('id_documents')).toEqual(before.documents);
    });

    it('refuses an oversized file with 413 and leaves no partial file', async () => {
      const before = await storedFiles('profile_pictures');
      const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
      const res = await uploads.inject({ method: 'POST', url: '/upload', ...form([{ name: 'picture', file: big }]) });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: MESSAGES.files.tooLarge, errors: { picture: MESSAGES.files.tooLarge } });
      expect(await storedFiles('profile_pictures')).toEqual(before);
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
      const before = await storedFiles('profile_pictures');
      const res = await uploads.inject({
        method: 'POST',
        url: '/upload',
        ...form([{ name: 'picture', file: PNG }, { name: 'fail', value: 'yes' }]),
      });
      expect(res.json()).toEqual({ discarded: true });
      expect(await storedFiles('profile_pictures')).toEqual(before);
    });
  });

  describe('large files', () => {
    // Beyond one 8 MB part an upload to a bucket is a multipart upload; on disk it is one stream.
    const large = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(17 * 1024 * 1024)]);
    const rules = { maxBytes: 20 * 1024 * 1024, kinds: ['pdf'] as const };

    it('are streamed into storage whole, in chunks as they come', async () => {
      const chunks = Array.from({ length: Math.ceil(large.length / 65536) }, (_, index) => large.subarray(index * 65536, (index + 1) * 65536));
      const stored = await portal.runtime.files.save('id_documents', Readable.from(chunks), rules);
      expect(stored).toMatchObject({ kind: 'pdf', bytes: large.length });
      expect(await portal.runtime.files.size('id_documents', stored.name)).toBe(large.length);
      expect((await readStored(portal.runtime.files, 'id_documents', stored.name)).equals(large)).toBe(true);
      await portal.runtime.files.remove('id_documents', stored.name);
      expect(await storedFiles('id_documents')).not.toContain(stored.name);
    });

    it('leave nothing behind when refused part way, after parts were written', async () => {
      const before = await storedFiles('id_documents');
      const tooLarge = Buffer.concat([large, randomBytes(4 * 1024 * 1024)]);
      await expect(portal.runtime.files.save('id_documents', Readable.from([tooLarge.subarray(0, 9e6), tooLarge.subarray(9e6)]), rules)).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: MESSAGES.files.tooLarge,
      });
      expect(await storedFiles('id_documents')).toEqual(before);
    });

    it('leave nothing behind when the sender goes away mid-way', async () => {
      const before = await storedFiles('id_documents');
      const cut = Readable.from(
        (async function* () {
          yield large.subarray(0, 9e6);
          throw new Error('connection reset');
        })(),
      );
      await expect(portal.runtime.files.save('id_documents', cut, rules)).rejects.toThrow('connection reset');
      expect(await storedFiles('id_documents')).toEqual(before);
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

    it('answers Range requests with 206 and Content-Range, and conditional ones with 304', async () => {
      const document = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(100_000)]);
      const size = document.length;
      const stored = await portal.runtime.files.save('id_documents', Readable.from(document), { maxBytes: size, kinds: ['pdf'] });
      const url = fileUrl(portal.runtime, 'id_documents', stored.name);

      const whole = await portal.app.inject(url);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.headers['content-length']).toBe(String(size));
      expect(whole.rawPayload.equals(document)).toBe(true);

      for (const [range, start, end] of [
        ['bytes=100-199', 100, 199],
        ['bytes=99990-', 99_990, size - 1],
        ['bytes=-10', size - 10, size - 1],
        ['bytes=0-999999999', 0, size - 1],
      ] as const) {
        const part = await portal.app.inject({ url, headers: { range } });
        expect(part.statusCode, range).toBe(206);
        expect(part.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
        expect(part.headers['content-length'], range).toBe(String(end - start + 1));
        expect(part.rawPayload.equals(document.subarray(start, end + 1)), range).toBe(true);
      }
      const past = await portal.app.inject({ url, headers: { range: `bytes=${size}-` } });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${size}`);
      // Several ranges at once are answered with the whole file.
      const several = await portal.app.inject({ url, headers: { range: 'bytes=0-1,5-6' } });
      expect(several.statusCode).toBe(200);
      expect(several.rawPayload.length).toBe(size);

      const etag = whole.headers.etag as string;
      expect(etag).toBeTruthy();
      const cached = await portal.app.inject({ url, headers: { 'if-none-match': etag } });
      expect(cached.statusCode).toBe(304);
      expect(cached.rawPayload.length).toBe(0);
      const head = await portal.app.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(size));

      await portal.runtime.files.remove('id_documents', stored.name);
      const gone = await portal.app.inject(url);
      expect(gone.statusCode).toBe(404);
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
});

import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../testing/factories.ts';
import { form, JPEG } from '../../../testing/multipart.ts';
import { STORAGE_DRIVERS, storedNamesIn } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { courses, profiles } from '../../db/schema.ts';
import { signAccessToken } from '../tokens.ts';

// A portal of its own per storage driver (the file's shared portal has one driver).
describe.each(STORAGE_DRIVERS)('malformed uploads on the %s storage', (driver) => {
  let portal: TestPortal;
  let adminToken: string;
  let learnerToken: string;
  beforeAll(async () => {
    portal = await createTestPortal({ storage: driver });
    const admin = await createUser(portal.runtime.db, { role: 'admin' });
    const learner = await createUser(portal.runtime.db);
    adminToken = signAccessToken({ sub: admin.id, role: 'admin', mf: 'passed' }, portal.runtime.jwtSecret, 900);
    learnerToken = signAccessToken({ sub: learner.id, role: 'learner' }, portal.runtime.jwtSecret, 900);
  });
  afterAll(() => portal.close());

  const BOUNDARY = '----portal-test-boundary';
  const filesLeft = () => storedNamesIn(portal.runtime.files, ['courseImg', 'profile_pictures', 'id_documents', 'signatures']);
  const rows = async () => ({
    courses: (await portal.runtime.db.select({ n: count() }).from(courses))[0]!.n,
    profiles: (await portal.runtime.db.select({ n: count() }).from(profiles))[0]!.n,
  });

  const send = (url: string, method: 'POST' | 'PUT', token: string, contentType: string, payload: Buffer | string) =>
    portal.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });

  describe('a malformed multipart body', () => {
    const whole = form([
      { name: 'title', value: 'Fire fighting' },
      { name: 'courseImg', file: JPEG, filename: 'fire.jpg', type: 'image/jpeg' },
    ]).payload as Buffer;

    it.each([
      ['without a boundary', 'multipart/form-data', whole],
      ['with a boundary the body does not use', 'multipart/form-data; boundary=something-else', whole],
      ['cut off in the middle of a file', `multipart/form-data; boundary=${BOUNDARY}`, whole.subarray(0, whole.length - 60)],
      ['cut off in its headers', `multipart/form-data; boundary=${BOUNDARY}`, Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`)],
      ['that is empty', `multipart/form-data; boundary=${BOUNDARY}`, Buffer.alloc(0)],
    ])('%s answers 4xx with a message, keeping no row and no file', async (_label, contentType, body) => {
      const before = await rows();
      for (const [url, method, token] of [
        ['/api/courses', 'POST', adminToken],
        ['/api/userProfile', 'POST', learnerToken],
      ] as const) {
        const res = await send(url, method, token, contentType, body);
        expect(res.statusCode, `${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
        expect(typeof res.json().message).toBe('string');
      }
      expect(await rows()).toEqual(before);
      expect(await filesLeft()).toEqual([]);
    });

    it('with a part after the file limit answers 413, keeping no file', async () => {
      const body = form([
        { name: 'title', value: 'Fire fighting' },
        { name: 'courseImg', file: JPEG, filename: 'one.jpg', type: 'image/jpeg' },
        { name: 'extra', file: JPEG, filename: 'two.jpg', type: 'image/jpeg' },
        { name: 'courseImg', file: JPEG, filename: 'three.jpg', type: 'image/jpeg' },
      ]);
      const res = await send('/api/courses', 'POST', adminToken, body.headers['content-type'], body.payload as Buffer);
      expect([400, 413]).toContain(res.statusCode);
      expect(await filesLeft()).toEqual([]);
    });
  });
});

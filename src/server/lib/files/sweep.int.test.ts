import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../testing/factories.ts';
import { form, JPEG, PDF, PNG, PROFILE_SPEC_FIELDS } from '../../../testing/multipart.ts';
import { isStored, leavePartialFile, STORAGE_DRIVERS, storedNames } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { profiles } from '../../db/schema.ts';
import { referencedFileNames } from '../../modules/files/stored-files.service.ts';
import { signAccessToken } from '../tokens.ts';
import { sweepStoredFiles } from './sweep.ts';

// A portal of its own per storage driver (the file's shared portal has one driver).
describe.each(STORAGE_DRIVERS)('the sweep of left-over upload files on the %s storage', (driver) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal({ storage: driver });
  });
  afterAll(() => portal.close());

  async function createProfileThroughTheApi() {
    const user = await createUser(portal.runtime.db);
    const body = form([
      ...Object.entries(PROFILE_SPEC_FIELDS).map(([name, value]) => ({ name, value })),
      { name: 'profilePicture', file: PNG, filename: 'me.png' },
      { name: 'IdDocument', file: PDF, filename: 'id.pdf' },
      { name: 'signature', file: JPEG, filename: 'sign.jpg' },
    ]);
    const token = signAccessToken({ sub: user.id, role: 'learner' }, portal.runtime.jwtSecret, 900);
    const res = await portal.app.inject({ method: 'POST', url: '/api/userProfile', ...body, headers: { ...body.headers, authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(201);
    return (await portal.runtime.db.select().from(profiles).where(eq(profiles.userId, user.id)))[0]!;
  }

  it('removes old temporary files and stored files no row points to, and never a file a row points to', async () => {
    const files = portal.runtime.files;
    const row = await createProfileThroughTheApi();
    const kept = [
      ['profile_pictures', row.profilePictureFile],
      ['id_documents', row.idDocumentFile],
      ['signatures', row.signatureFile],
    ] as const;
    // A crash between storing an upload and committing its row: the file is stored, no row names it.
    const stranded = await files.save('id_documents', Readable.from(PDF), { maxBytes: 1024, kinds: ['pdf'] });
    const oldPart = driver === 'local' ? leavePartialFile(files, 'profile_pictures') : undefined;

    // The sweep's cutoff falls here: everything above is older, everything below younger. Object
    // times in a bucket are whole seconds, cut down: there the cutoff is the last millisecond of
    // this second, and the files below wait for the next. A file's time on disk may lag the clock
    // by a tick of the kernel's, hence the few milliseconds more.
    const cutoff = driver === 's3' ? Math.floor(Date.now() / 1000) * 1000 + 999 : Date.now();
    await sleep(cutoff - Date.now() + 20);

    // An upload still in flight, and one stored a moment ago whose change is about to commit.
    const fresh = await files.save('signatures', Readable.from(PDF), { maxBytes: 1024, kinds: ['pdf'] });
    const newPart = driver === 'local' ? leavePartialFile(files, 'profile_pictures') : undefined;

    const result = await sweepStoredFiles(files, referencedFileNames(portal.runtime), { now: cutoff, olderThanMs: 0 });
    expect(result).toMatchObject({ partialRemoved: driver === 'local' ? 1 : 0, orphansRemoved: 1 });
    expect(await isStored(files, 'id_documents', stranded.name)).toBe(false);
    for (const [area, name] of kept) expect(await isStored(files, area, name), name).toBe(true);
    expect(await isStored(files, 'signatures', fresh.name)).toBe(true);
    if (oldPart && newPart) {
      expect(oldPart.exists()).toBe(false);
      expect(newPart.exists()).toBe(true);
    }
    expect(await storedNames(files, 'id_documents')).toEqual([row.idDocumentFile]);

    // Nothing more to do on the next round.
    const again = await sweepStoredFiles(files, referencedFileNames(portal.runtime), { now: cutoff, olderThanMs: 0 });
    expect(again).toMatchObject({ partialRemoved: 0, orphansRemoved: 0 });
  });
});

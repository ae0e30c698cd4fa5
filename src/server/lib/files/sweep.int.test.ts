import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../testing/factories.ts';
import { form, JPEG, PDF, PNG, PROFILE_SPEC_FIELDS } from '../../../testing/multipart.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { profiles } from '../../db/schema.ts';
import { referencedFileNames } from '../../modules/files/stored-files.service.ts';
import { signAccessToken } from '../tokens.ts';
import { SWEEP_AGE_MS, sweepStoredFiles } from './sweep.ts';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.close());

const TWO_HOURS_AGO = new Date(Date.now() - 2 * SWEEP_AGE_MS);
const age = (file: string, when = TWO_HOURS_AGO) => utimesSync(file, when, when);

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

describe('the sweep of left-over upload files', () => {
  it('removes old temporary files and stored files no row points to, and never a file a row points to', async () => {
    const files = portal.runtime.files;
    const row = await createProfileThroughTheApi();
    const kept = [
      files.absolutePath('profile_pictures', row.profilePictureFile),
      files.absolutePath('id_documents', row.idDocumentFile),
      files.absolutePath('signatures', row.signatureFile),
    ];
    for (const file of kept) age(file);

    // A crash between storing an upload and committing its row: the file is stored, no row names it.
    const stranded = await files.save('id_documents', Readable.from(PDF), { maxBytes: 1024, kinds: ['pdf'] });
    const strandedPath = files.absolutePath('id_documents', stranded.name);
    age(strandedPath);
    // An upload still in flight, and one stored a moment ago whose change is about to commit.
    const fresh = await files.save('signatures', Readable.from(PDF), { maxBytes: 1024, kinds: ['pdf'] });
    const freshPath = files.absolutePath('signatures', fresh.name);
    const oldPart = path.join(files.areaDir('profile_pictures'), '.0b8d3c64-5a8e-4f55-9a63-4d7b6c1f2e90.part');
    const newPart = path.join(files.areaDir('profile_pictures'), '.6f1c2b3a-9d8e-4c7b-8a6f-5e4d3c2b1a09.part');
    writeFileSync(oldPart, 'half an upload');
    writeFileSync(newPart, 'an upload going on');
    age(oldPart);

    const result = await sweepStoredFiles(files, referencedFileNames(portal.runtime));
    expect(result).toMatchObject({ partialRemoved: 1, orphansRemoved: 1 });
    expect(existsSync(strandedPath)).toBe(false);
    expect(existsSync(oldPart)).toBe(false);
    for (const file of [...kept, freshPath, newPart]) expect(existsSync(file), file).toBe(true);

    // Nothing more to do on the next round.
    const again = await sweepStoredFiles(files, referencedFileNames(portal.runtime));
    expect(again).toMatchObject({ partialRemoved: 0, orphansRemoved: 0 });
  });
});

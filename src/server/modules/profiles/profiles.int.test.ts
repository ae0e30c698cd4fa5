import { eq } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages.ts';
import { toSpecProfile } from '../../../shared/spec-fields.ts';
import { createUser, sessionOf } from '../../../testing/factories.ts';
import { ELF, form, HTML, JPEG, PDF, PNG, SVG, type TFormPart } from '../../../testing/multipart.ts';
import { imageInfo } from '../../../testing/images.ts';
import { readStored, storedNames } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { profiles, users } from '../../db/schema.ts';
import { fileUrl } from '../../lib/files/file-urls.ts';
import type { TFileArea } from '../../lib/files/storage.ts';
import { afterAll, beforeAll, describe, expect, test, type TTestUser } from '../../../testing/portal-test.ts';

type TUser = TTestUser;

const FIELDS = {
  name: 'Arjun Nair',
  gradenumber: 'Grade II',
  phone: '+91 98765 43210',
  DateofBirth: '1990-04-12',
  passportNumber: 'z1234567',
  passportExpiryDate: '2034-01-31',
  indosNo: '19ZL1234',
  CDCnumber: 'mum123456',
  CDCexpiryDate: '2033-06-30',
  IDType: 'aadhaar',
  streetAddress: '12 Marine Drive',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'India',
  zipCode: '400002',
  consent: 'true',
};
const FILES: TFormPart[] = [
  { name: 'profilePicture', file: PNG, filename: 'me.png', type: 'image/png' },
  { name: 'IdDocument', file: PDF, filename: 'aadhaar.pdf', type: 'application/pdf' },
  { name: 'signature', file: JPEG, filename: 'sign.jpg', type: 'image/jpeg' },
];

function profileForm(fields: Record<string, string | undefined> = {}, files: TFormPart[] = FILES) {
  const merged = { ...FIELDS, ...fields };
  const parts: TFormPart[] = Object.entries(merged)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ({ name, value }));
  return form([...parts, ...files]);
}

/** Pictures are stored re-encoded: the same picture (format and size), not the same bytes. */
const pictureOf = (bytes: Buffer) => imageInfo(bytes);

const it = test
  .extend('stored', { scope: 'file' }, ({ portal }) => async (area: TFileArea) => (await storedNames(portal.runtime.files, area)).filter((name) => !name.startsWith('.')))
  .extend('allStored', { scope: 'file' }, ({ stored }) => async () => ({
    pictures: await stored('profile_pictures'),
    documents: await stored('id_documents'),
    signatures: await stored('signatures'),
  }))
  .extend('rowOf', { scope: 'file' }, ({ db }) => async (userId: string) => (await db.select().from(profiles).where(eq(profiles.userId, userId)))[0])
  .extend('create', { scope: 'file' }, ({ portal, bearer }) => async (user: TUser, fields: Record<string, string | undefined> = {}, files: TFormPart[] = FILES) => {
    const body = profileForm(fields, files);
    return portal.app.inject({ method: 'POST', url: '/api/userProfile', headers: { ...bearer(user), ...body.headers }, payload: body.payload });
  })
  .extend('update', { scope: 'file' }, ({ portal, bearer }) => async (user: TUser, fields: Record<string, string | undefined> = {}, files: TFormPart[] = []) => {
    const body = profileForm({ consent: undefined, ...fields }, files);
    return portal.app.inject({ method: 'PUT', url: '/api/userProfile/update', headers: { ...bearer(user), ...body.headers }, payload: body.payload });
  })
  .extend('learnerWithProfile', { scope: 'file' }, ({ create, db }) => async () => {
    const user = await createUser(db);
    const res = await create(user);
    expect(res.statusCode, res.body).toBe(201);
    return { user, profile: res.json().data };
  });

describe('creating a profile (POST /api/userProfile)', () => {
  it('stores the fields and the three files, typed from their bytes, for the caller', async ({ create, db, portal, rowOf }) => {
    const user = await createUser(db);
    const res = await create(user);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.profile.submitted);
    expect(body.data).toMatchObject({
      userId: user.id,
      name: 'Arjun Nair',
      gradenumber: 'Grade II',
      phone: '+919876543210',
      DateofBirth: '1990-04-12',
      passportNumber: 'Z1234567',
      CDCnumber: 'MUM123456',
      IDType: 'aadhaar',
      IDTypeLabel: 'Aadhaar',
      zipCode: '400002',
      creator: { firstName: 'Arjun', lastName: user.lastName },
      profilePicture: { contentType: 'image/png', isImage: true },
      IdDocument: { contentType: 'application/pdf', isImage: false },
      signature: { contentType: 'image/jpeg', isImage: true },
    });
    // A learner does not see an e-mail in the creator (administrators do).
    expect(body.data.creator).not.toHaveProperty('email');

    const row = (await rowOf(user.id))!;
    expect(row.consentAcceptedAt).toBeInstanceOf(Date);
    expect(row.id).toBe(body.data._id);
    expect(row.profilePictureFile).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(row.idDocumentFile).toMatch(/\.pdf$/);
    expect(row.signatureFile).toMatch(/\.jpg$/);
    const files = portal.runtime.files;
    expect(await pictureOf(await readStored(files, 'profile_pictures', row.profilePictureFile))).toEqual(await pictureOf(PNG));
    expect((await readStored(files, 'id_documents', row.idDocumentFile)).equals(PDF)).toBe(true);
    expect(await pictureOf(await readStored(files, 'signatures', row.signatureFile))).toEqual(await pictureOf(JPEG));
    expect(body.data.profilePicture.filename).toBe(row.profilePictureFile);
  });

  it('accepts an ID type by its label as older clients send it', async ({ create, db, rowOf }) => {
    const user = await createUser(db);
    const res = await create(user, { IDType: 'Aadhar' });
    expect(res.statusCode, res.body).toBe(201);
    expect((await rowOf(user.id))!.idType).toBe('aadhaar');
  });

  it('ignores a smuggled role, approval or user id', async ({ create, db, rowOf }) => {
    const user = await createUser(db);
    const victim = await createUser(db);
    const res = await create(user, {
      role: 'admin',
      approved: 'true',
      approvedAt: '2020-01-01',
      userId: victim.id,
      _id: victim.id,
      consentAcceptedAt: '2000-01-01',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.userId).toBe(user.id);
    expect(await rowOf(victim.id)).toBeUndefined();
    const [account] = await db.select().from(users).where(eq(users.id, user.id));
    expect(account).toMatchObject({ role: 'learner', approvedAt: null });
    expect((await rowOf(user.id))!.consentAcceptedAt!.getFullYear()).toBeGreaterThan(2020);
  });

  it('refuses a second profile with 409 before reading its files', async ({ allStored, create, learnerWithProfile, rowOf }) => {
    const { user, profile } = await learnerWithProfile();
    const before = (await allStored());
    const res = await create(user, { name: 'Someone Else' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: MESSAGES.profile.alreadyExists });
    expect((await allStored())).toEqual(before);
    expect((await rowOf(user.id))!.name).toBe(profile.name);
  });

  it('names each missing or wrong field and keeps no file', async ({ allStored, create, db, rowOf }) => {
    const user = await createUser(db);
    const before = (await allStored());
    const cases: Array<[Record<string, string | undefined>, string, string]> = [
      [{ name: '' }, 'name', 'Name is required'],
      [{ gradenumber: undefined }, 'gradenumber', 'Grade Number is required'],
      // Only the spec's spellings are read off the wire.
      [{ gradenumber: undefined, gradeNumber: 'Grade II' }, 'gradenumber', 'Grade Number is required'],
      [{ zipCode: '  ' }, 'zipCode', 'Zip Code is required'],
      [{ phone: '12345' }, 'phone', MESSAGES.validation.phone],
      [{ phone: '+91-98765-43210-99999' }, 'phone', MESSAGES.validation.phone],
      [{ DateofBirth: '2999-01-01' }, 'DateofBirth', MESSAGES.profile.birthRange],
      [{ DateofBirth: '1990-02-30' }, 'DateofBirth', MESSAGES.profile.invalidDate('Date of Birth')],
      [{ passportExpiryDate: 'next year' }, 'passportExpiryDate', MESSAGES.profile.invalidDate('Passport Expiry Date')],
      [{ CDCexpiryDate: '3020-01-01' }, 'CDCexpiryDate', MESSAGES.profile.expiryRange('CDC Expiry Date')],
      [{ IDType: 'library card' }, 'IDType', MESSAGES.profile.idType],
      [{ passportNumber: '<script>' }, 'passportNumber', MESSAGES.validation.badCharacters('Passport Number')],
      [{ name: 'x'.repeat(101) }, 'name', MESSAGES.validation.tooLong('Name', 100)],
      // Certificates print the name: their fonts draw the Latin, Greek, Cyrillic and Devanagari alphabets.
      [{ name: 'Wei 李伟 Zhang' }, 'name', MESSAGES.validation.nameNotPrintable('Name', '李 伟')],
    ];
    for (const [fields, field, message] of cases) {
      const res = await create(user, fields);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message, field).toBe(message);
      expect(res.json().errors[field], field).toBe(message);
    }
    const noFiles = await create(user, {}, [FILES[1]!]);
    expect(noFiles.statusCode).toBe(400);
    expect(noFiles.json().errors).toEqual({
      profilePicture: 'Profile Picture is required',
      signature: 'Signature is required',
    });
    const clearFileName = await create(user, {}, [FILES[0]!, { ...FILES[1]!, name: 'idDocument' }, FILES[2]!]);
    expect(clearFileName.statusCode).toBe(400);
    expect(clearFileName.json()).toEqual({ message: MESSAGES.files.unexpectedField });
    expect(await rowOf(user.id)).toBeUndefined();
    expect((await allStored())).toEqual(before);
  });

  it('takes exactly the spec fields, without consent, and records that no consent was captured', async ({ create, db, rowOf }) => {
    for (const consent of [undefined, 'false']) {
      const user = await createUser(db);
      const res = await create(user, { consent });
      expect(res.statusCode, String(consent)).toBe(201);
      expect(res.json().data.consentAcceptedAt).toBeNull();
      expect((await rowOf(user.id))!.consentAcceptedAt).toBeNull();
    }
  });

  it('refuses files whose bytes are not an accepted type with 415, writing nothing', async ({ allStored, create, db, rowOf }) => {
    const user = await createUser(db);
    const before = (await allStored());
    const cases: Array<[TFormPart, string]> = [
      [{ name: 'profilePicture', file: HTML, filename: 'me.png', type: 'image/png' }, MESSAGES.validation.mustBeImage],
      [{ name: 'profilePicture', file: PDF, filename: 'me.png', type: 'image/png' }, MESSAGES.validation.mustBeImage],
      [{ name: 'signature', file: SVG, filename: 'sign.png', type: 'image/png' }, MESSAGES.validation.mustBeImageOrPdf],
      [{ name: 'IdDocument', file: ELF, filename: 'passport.pdf', type: 'application/pdf' }, MESSAGES.validation.mustBeImageOrPdf],
    ];
    for (const [bad, message] of cases) {
      // The refused file comes last, after the others were already stored.
      const files = [...FILES.filter((file) => file.name !== bad.name), bad];
      const res = await create(user, {}, files);
      expect(res.statusCode, bad.name).toBe(415);
      // The answer names the refused file's field, so the form shows the message beside it.
      expect(res.json(), bad.name).toEqual({ message, errors: { [bad.name]: message } });
    }
    expect(await rowOf(user.id)).toBeUndefined();
    expect((await allStored())).toEqual(before);
  });

  it('takes a file of nearly 5 MB, streamed', async ({ create, db, portal, rowOf }) => {
    const user = await createUser(db);
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length - 10, 0x20)]);
    const res = await create(user, {}, [FILES[0]!, { name: 'IdDocument', file: big, filename: 'scan.pdf' }, FILES[2]!]);
    expect(res.statusCode, res.body).toBe(201);
    const row = (await rowOf(user.id))!;
    expect(await portal.runtime.files.size('id_documents', row.idDocumentFile)).toBe(big.length);
  });

  it('needs a session', async ({ portal }) => {
    const res = await portal.app.inject({ method: 'POST', url: '/api/userProfile', ...profileForm() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: MESSAGES.common.unauthorized });
  });
});

describe('the size limit', () => {
  // A portal of its own with a small limit beside the file's: the limit is read when a portal starts.
  let small: TestPortal;
  beforeAll(async () => {
    small = await createTestPortal({ env: { PROFILE_FILE_MAX_BYTES: '4096' } });
  });
  afterAll(() => small.close());

  it('refuses a file over PROFILE_FILE_MAX_BYTES with 413 and keeps nothing of the submission', async () => {
    const user = await createUser(small.runtime.db);
    const headers = {
      authorization: small.authorization(user),
    };
    const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
    const body = profileForm({}, [FILES[1]!, FILES[2]!, { name: 'profilePicture', file: big, filename: 'me.png' }]);
    const res = await small.app.inject({ method: 'POST', url: '/api/userProfile', headers: { ...headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(413);
    const tooLarge = MESSAGES.profile.fileTooLarge('Profile Picture', '4 KB');
    expect(res.json()).toEqual({ message: tooLarge, errors: { profilePicture: tooLarge } });
    expect((await small.runtime.db.select().from(profiles).where(eq(profiles.userId, user.id))).length).toBe(0);
    for (const area of ['profile_pictures', 'id_documents', 'signatures'] as const) {
      expect(await storedNames(small.runtime.files, area), area).toEqual([]);
    }
  });
});

describe("reading one's profile", () => {
  it('answers 404 before there is one, and the profile with working signed file URLs after', async ({ bearer, create, db, portal }) => {
    const user = await createUser(db);
    const none = await portal.app.inject({ url: '/api/userProfile', headers: bearer(user) });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: MESSAGES.profile.notFound });
    expect(await portal.caller(sessionOf(user)).profiles.mine()).toBeNull();

    await create(user);
    const res = await portal.app.inject({ url: '/api/userProfile', headers: bearer(user) });
    expect(res.statusCode).toBe(200);
    const profile = res.json().data;
    expect(Object.keys(profile)).toEqual(
      expect.arrayContaining(['_id', 'name', 'gradenumber', 'phone', 'DateofBirth', 'passportNumber', 'passportExpiryDate', 'indosNo', 'CDCnumber', 'CDCexpiryDate', 'IDType', 'streetAddress', 'city', 'state', 'country', 'zipCode', 'createdAt', 'updatedAt', 'profilePicture', 'IdDocument', 'signature', 'creator']),
    );
    for (const column of ['profilePictureFile', 'idDocumentFile', 'signatureFile', 'gradeNumber', 'user_id']) {
      expect(profile).not.toHaveProperty(column);
    }
    // The browser reads the same profile through tRPC, under the clear names.
    const mine = (await portal.caller(sessionOf(user)).profiles.mine())!;
    expect(mine).toMatchObject({ id: profile._id, gradeNumber: profile.gradenumber, idType: profile.IDType, idDocument: profile.IdDocument });
    expect(toSpecProfile(mine)).toEqual(profile);

    const picture = await portal.app.inject(profile.profilePicture.url);
    expect(picture.statusCode).toBe(200);
    expect(await pictureOf(picture.rawPayload)).toEqual(await pictureOf(PNG));
    const document = await portal.app.inject(profile.IdDocument.url);
    expect(document.headers['content-type']).toBe('application/pdf');
    expect(document.headers['x-content-type-options']).toBe('nosniff');
    expect(document.headers['content-security-policy']).toContain('sandbox');
    expect(document.rawPayload.equals(PDF)).toBe(true);
    expect(await pictureOf((await portal.app.inject(profile.signature.url)).rawPayload)).toEqual(await pictureOf(JPEG));
  });

  it('refuses a visitor', async ({ portal }) => {
    expect((await portal.app.inject({ url: '/api/userProfile' })).statusCode).toBe(401);
    await expect(portal.caller().profiles.mine()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('private files', () => {
  it('open only through an unaltered, unexpired signature', async ({ learnerWithProfile, portal }) => {
    const { profile } = await learnerWithProfile();
    const name = profile.IdDocument.filename as string;
    const url = profile.IdDocument.url as string;
    const altered = url.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    const unsigned = `/api/files/id_documents/${name}`;
    const otherArea = url.replace('/id_documents/', '/signatures/');
    for (const candidate of [altered, unsigned, otherArea, `/api/uploads/id_documents/${name}`]) {
      const res = await portal.app.inject(candidate);
      expect(res.statusCode, candidate).toBe(404);
      expect(res.body).not.toContain('%PDF');
    }
    const expired = await portal.app.inject(fileUrl(portal.runtime, 'id_documents', name, new Date(Date.now() - 3600_000)));
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ message: MESSAGES.files.linkExpired });
  });

  it('are not issued to another learner: their id answers like a missing one', async ({ bearer, db, learnerWithProfile, portal }) => {
    const { user: owner } = await learnerWithProfile();
    const other = await createUser(db);
    const missing = '00000000-0000-4000-8000-000000000000';
    const caller = portal.caller(sessionOf(other));
    for (const userId of [owner.id, missing]) {
      await expect(caller.profiles.byUser({ userId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: MESSAGES.profile.notFound,
      });
      const res = await portal.app.inject({ url: `/api/userProfile/user/${userId}`, headers: bearer(other) });
      expect(res.statusCode, userId).toBe(404);
      expect(res.json()).toEqual({ message: MESSAGES.profile.notFound });
    }
    // Their own "mine" is theirs only.
    expect(await caller.profiles.mine()).toBeNull();
    const list = await portal.app.inject({ url: '/api/userProfile/getAllUserProfiles', headers: bearer(other) });
    expect(list.statusCode).toBe(403);
    await expect(caller.profiles.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('are issued to administrators, and work', async ({ bearer, db, learnerWithProfile, portal }) => {
    const { user: owner } = await learnerWithProfile();
    const admin = await createUser(db, { role: 'admin' });
    const profile = await portal.caller(sessionOf(admin)).profiles.byUser({ userId: owner.id });
    expect(profile.creator).toEqual({ firstName: 'Arjun', lastName: owner.lastName, email: owner.email });
    expect((await portal.app.inject(profile.idDocument.url)).rawPayload.equals(PDF)).toBe(true);
    const res = await portal.app.inject({ url: `/api/userProfile/user/${owner.id}`, headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(toSpecProfile(profile));
    expect(await pictureOf((await portal.app.inject(res.json().data.profilePicture.url)).rawPayload)).toEqual(await pictureOf(PNG));
  });
});

describe('editing a profile (PUT /api/userProfile/update)', () => {
  it('changes the fields and keeps the files when none are sent', async ({ learnerWithProfile, rowOf, update }) => {
    const { user } = await learnerWithProfile();
    const before = (await rowOf(user.id))!;
    const res = await update(user, { name: 'Arjun K. Nair', city: 'Kochi', role: 'admin', userId: '00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: MESSAGES.profile.updated, data: { name: 'Arjun K. Nair', city: 'Kochi' } });
    const after = (await rowOf(user.id))!;
    expect(after).toMatchObject({
      id: before.id,
      userId: user.id,
      profilePictureFile: before.profilePictureFile,
      idDocumentFile: before.idDocumentFile,
      signatureFile: before.signatureFile,
      consentAcceptedAt: before.consentAcceptedAt,
    });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
  });

  it('replaces a file sent and removes the old one after the change commits', async ({ learnerWithProfile, portal, rowOf, stored, update }) => {
    const { user } = await learnerWithProfile();
    const before = (await rowOf(user.id))!;
    const res = await update(user, {}, [{ name: 'profilePicture', file: JPEG, filename: 'new.jpg' }]);
    expect(res.statusCode, res.body).toBe(200);
    const after = (await rowOf(user.id))!;
    expect(after.profilePictureFile).not.toBe(before.profilePictureFile);
    expect(after.profilePictureFile).toMatch(/\.jpg$/);
    expect(after.idDocumentFile).toBe(before.idDocumentFile);
    expect(await stored('profile_pictures')).toContain(after.profilePictureFile);
    expect(await stored('profile_pictures')).not.toContain(before.profilePictureFile);
    expect(await stored('id_documents')).toContain(before.idDocumentFile);
    expect(await pictureOf((await portal.app.inject(res.json().data.profilePicture.url)).rawPayload)).toEqual(await pictureOf(JPEG));
  });

  it('refused fields or files change nothing and keep no new file', async ({ allStored, learnerWithProfile, rowOf, update }) => {
    const { user } = await learnerWithProfile();
    const before = (await rowOf(user.id))!;
    const files = (await allStored());
    const badFields = await update(user, { name: 'Changed', phone: 'call me' }, [{ name: 'signature', file: PNG, filename: 's.png' }]);
    expect(badFields.statusCode).toBe(400);
    expect(badFields.json().errors).toEqual({ phone: MESSAGES.validation.phone });
    const badFile = await update(user, { name: 'Changed' }, [
      { name: 'IdDocument', file: PDF, filename: 'id.pdf' },
      { name: 'signature', file: HTML, filename: 's.png', type: 'image/png' },
    ]);
    expect(badFile.statusCode).toBe(415);
    expect(await rowOf(user.id)).toEqual(before);
    expect((await allStored())).toEqual(files);
  });

  it('answers 404 without a profile and 401 without a session', async ({ db, portal, rowOf, update }) => {
    const user = await createUser(db);
    const res = await update(user, {}, [{ name: 'signature', file: PNG, filename: 's.png' }]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: MESSAGES.profile.notFound });
    expect(await rowOf(user.id)).toBeUndefined();
    const anonymous = await portal.app.inject({ method: 'PUT', url: '/api/userProfile/update', ...profileForm() });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('document expiry', () => {
  const inMonths = (months: number) => {
    const date = new Date();
    date.setUTCMonth(date.getUTCMonth() + months);
    return date.toISOString().slice(0, 10);
  };

  it('flags a passport or CDC that is expired or expires within 6 months', async ({ create, db }) => {
    const user = await createUser(db);
    const res = await create(user, { passportExpiryDate: inMonths(3), CDCexpiryDate: inMonths(-1) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ passportExpiryStatus: 'expiring', CDCexpiryStatus: 'expired', documentsExpiring: true });

    const fine = await createUser(db);
    const ok = await create(fine, { passportExpiryDate: inMonths(7), CDCexpiryDate: inMonths(24) });
    expect(ok.json().data).toMatchObject({ passportExpiryStatus: 'valid', CDCexpiryStatus: 'valid', documentsExpiring: false });
  });
});

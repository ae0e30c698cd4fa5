import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../testing/factories.ts';
import { form, HTML, PDF, PROFILE_SPEC_FIELDS, type TFormPart } from '../../../testing/multipart.ts';
import { readStored, STORAGE_DRIVERS } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { profiles } from '../../db/schema.ts';

// A portal of its own per storage driver (the file's shared portal has one driver).
describe.each(STORAGE_DRIVERS)('profile files on the %s storage', (driver) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await createTestPortal({ storage: driver });
  });
  afterAll(() => portal.close());

  /** What a phone writes: the position the photo was taken at. */
  async function photoWithGps(): Promise<Buffer> {
    return sharp({ create: { width: 64, height: 48, channels: 3, background: '#0b3d5c' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Harbour Phone', Model: 'X1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '18/1 55/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '72/1 49/1 0/1' },
      })
      .toBuffer();
  }


  describe('stored pictures', () => {
    it('lose their EXIF (GPS included) and any bytes after the image; documents stay as sent', async () => {
      const user = await createUser(portal.runtime.db);
      const photo = await photoWithGps();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const signature = Buffer.concat([await sharp({ create: { width: 40, height: 20, channels: 3, background: '#fff' } }).png().toBuffer(), HTML]);
      const document = Buffer.concat([PDF, Buffer.from('%% kept as sent\n')]);
      const parts: TFormPart[] = [
        ...Object.entries(PROFILE_SPEC_FIELDS).map(([name, value]) => ({ name, value })),
        { name: 'profilePicture', file: photo, filename: 'me.jpg', type: 'image/jpeg' },
        { name: 'IdDocument', file: document, filename: 'id.pdf', type: 'application/pdf' },
        { name: 'signature', file: signature, filename: 'sign.png', type: 'image/png' },
      ];
      const body = form(parts);
      const res = await portal.app.inject({
        method: 'POST',
        url: '/api/userProfile',
        ...body,
        headers: { ...body.headers, authorization: portal.authorization({ id: user.id, role: 'learner' }) },
      });
      expect(res.statusCode, res.body).toBe(201);

      const row = (await portal.runtime.db.select().from(profiles).where(eq(profiles.userId, user.id)))[0]!;
      const storedPhoto = await readStored(portal.runtime.files, 'profile_pictures', row.profilePictureFile);
      const photoMeta = await sharp(storedPhoto).metadata();
      expect(photoMeta.format).toBe('jpeg');
      expect([photoMeta.width, photoMeta.height]).toEqual([64, 48]);
      expect(photoMeta.exif).toBeUndefined();
      expect(storedPhoto.includes(Buffer.from('Harbour Phone'))).toBe(false);

      const storedSignature = await readStored(portal.runtime.files, 'signatures', row.signatureFile);
      expect((await sharp(storedSignature).metadata()).format).toBe('png');
      expect(storedSignature.includes(Buffer.from('<script'))).toBe(false);
      // A PNG ends with its IEND chunk and nothing after it.
      expect(storedSignature.subarray(-8).toString('latin1')).toBe('IEND\xaeB`\x82');

      expect((await readStored(portal.runtime.files, 'id_documents', row.idDocumentFile)).equals(document)).toBe(true);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { createUser } from '../../../testing/factories.ts';
import { form, HTML, SVG, type TFormPart } from '../../../testing/multipart.ts';
import { readStored, STORAGE_DRIVERS } from '../../../testing/storage.ts';
import { createTestPortal, type TestPortal } from '../../../testing/test-runtime.ts';
import { courses } from '../../db/schema.ts';

// A portal of its own per storage driver (the file's shared portal has one driver).
describe.each(STORAGE_DRIVERS)('course image formats on the %s storage', (driver) => {
  let portal: TestPortal;
  let authorization: string;
  beforeAll(async () => {
    portal = await createTestPortal({ storage: driver });
    const admin = await createUser(portal.runtime.db, { role: 'admin' });
    authorization = portal.authorization({ id: admin.id, role: 'admin' });
  });
  afterAll(() => portal.close());

  const base = () => sharp({ create: { width: 120, height: 80, channels: 3, background: '#1aa39a' } });

  /** A 24-bit bottom-up BMP, as Paint writes it. */
  function bmpOf(width: number, height: number): Buffer {
    const stride = Math.ceil((24 * width) / 32) * 4;
    const file = Buffer.alloc(54 + stride * height);
    file.write('BM', 0, 'latin1');
    file.writeUInt32LE(file.length, 2);
    file.writeUInt32LE(54, 10);
    file.writeUInt32LE(40, 14);
    file.writeInt32LE(width, 18);
    file.writeInt32LE(height, 22);
    file.writeUInt16LE(1, 26);
    file.writeUInt16LE(24, 28);
    for (let row = 0; row < height; row += 1) {
      for (let column = 0; column < width; column += 1) file.set([0x5c, 0x3d, 0x0b], 54 + row * stride + column * 3);
    }
    return file;
  }

  /** The first bytes of an iPhone photo: an ISO-BMFF file of brand heic (HEVC inside). */
  const HEIC = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(64)]);

  async function postCourse(image: Buffer, filename: string) {
    const parts: TFormPart[] = [
      ...Object.entries({
        title: `Course ${randomUUID().slice(0, 8)}`,
        description: 'Personal survival techniques.',
        duration: '5 days',
        price: '4500',
        category: 'STCW',
        subject: JSON.stringify(['Personal survival']),
      }).map(([name, value]) => ({ name, value })),
      { name: 'courseImg', file: image, filename, type: 'application/octet-stream' },
    ];
    const body = form(parts);
    return portal.app.inject({ method: 'POST', url: '/api/courses', ...body, headers: { ...body.headers, authorization } });
  }

  describe('course images', () => {
    it.each([
      ['AVIF', async () => base().avif().toBuffer(), 'cover.avif'],
      ['TIFF', async () => base().tiff().toBuffer(), 'cover.tif'],
      ['BMP', async () => bmpOf(120, 80), 'cover.bmp'],
    ])('in %s are accepted and stored as WebP', async (_format, make, filename) => {
      const res = await postCourse(await make(), filename);
      expect(res.statusCode, res.body).toBe(201);
      const row = (await portal.runtime.db.select().from(courses).where(eq(courses.id, res.json().data._id)))[0]!;
      const stored = await readStored(portal.runtime.files, 'courseImg', row.imageFile!);
      const meta = await sharp(stored).metadata();
      expect(meta.format).toBe('webp');
      // Cropped to the card's shape, never enlarged.
      expect(meta.width).toBeLessThanOrEqual(120);
    });

    it('from a phone in HEIC are refused with a message that says what to do', async () => {
      const res = await postCourse(HEIC, 'IMG_0001.HEIC');
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toBe(MESSAGES.files.heicUnreadable);
    });

    it('that are not raster images stay refused with 415', async () => {
      for (const [file, name] of [[SVG, 'x.svg'], [HTML, 'x.jpg']] as const) {
        expect((await postCourse(file, name)).statusCode).toBe(415);
      }
    });
  });
});

import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { COURSE_IMAGE_MAX_BYTES } from '../../../shared/schemas/course.ts';
import { createCourse, createUser, sessionOf } from '../../../testing/factories.ts';
import { imageInfo, imageOf } from '../../../testing/images.ts';
import { form, HTML, PDF, type TFormPart } from '../../../testing/multipart.ts';
import { readStored, storedNames } from '../../../testing/storage.ts';
import { courses } from '../../db/schema.ts';
import { CATALOGUE_RECHECK_MS, invalidateCatalogue } from './catalogue.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

const C = MESSAGES.courses;

const fields = (overrides: Record<string, string | undefined> = {}): TFormPart[] =>
  Object.entries({
    title: 'Basic Safety Training',
    description: 'Personal survival techniques,\nfire prevention and first aid.',
    duration: '5 days',
    price: '4500',
    category: 'STCW',
    subject: JSON.stringify(['Personal survival', 'Fire fighting']),
    ...overrides,
  })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ({ name, value }));

const imagePart = (file: Buffer, filename = 'cover.jpg', type = 'image/jpeg'): TFormPart => ({ name: 'courseImg', file, filename, type });

const it = test
  .extend('admin', { scope: 'file' }, ({ db }) => createUser(db, { role: 'admin' }))
  .extend('learner', { scope: 'file' }, ({ db }) => createUser(db, { approvedAt: new Date() }))
  // eslint-disable-next-line no-empty-pattern -- Vitest reads what a fixture needs from its first parameter's pattern
  .extend('photo', { scope: 'file' }, ({}) => imageOf('jpeg', 1600, 1200))
  /** Every file in the course image area, temporary ones included. */
  .extend('storedImages', { scope: 'file' }, ({ portal }) => () => storedNames(portal.runtime.files, 'courseImg'))
  .extend('courseCount', { scope: 'file' }, ({ db }) => async () => (await db.select({ n: count() }).from(courses))[0]!.n)
  .extend('courseRow', { scope: 'file' }, ({ db }) => async (id: string) => (await db.select().from(courses).where(eq(courses.id, id)))[0])
  .extend('postCourse', { scope: 'file' }, ({ bearer, portal, admin }) => async (parts: TFormPart[], user: { id: string; role: 'admin' | 'learner' } | null = admin) => {
    return portal.app.inject({
      method: 'POST',
      url: '/api/courses',
      ...form(parts),
      headers: { ...form(parts).headers, ...(user ? bearer(user) : {}) },
    });
  })
  .extend('putCourse', { scope: 'file' }, ({ bearer, portal, admin }) => async (id: string, parts: TFormPart[]) => {
    return portal.app.inject({ method: 'PUT', url: `/api/courses/${id}`, ...form(parts), headers: { ...form(parts).headers, ...bearer(admin) } });
  })
  .extend('newCourse', { scope: 'file' }, ({ photo, postCourse }) => async () => {
    const res = await postCourse([...fields({ title: 'Fire Fighting' }), imagePart(photo)]);
    return res.json().data as { _id: string; courseImg: { filename: string } };
  });

describe('creating a course (POST /api/courses, multipart)', () => {
  it('stores the course and its image once, resized to the cards’ size as WebP, with its size', async ({ courseRow, photo, portal, postCourse, storedImages }) => {
    const before = (await storedImages());
    const res = await postCourse([...fields(), imagePart(photo, 'ship.png', 'image/png')]);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe(C.created);
    expect(body.data).toMatchObject({
      title: 'Basic Safety Training',
      description: 'Personal survival techniques,\nfire prevention and first aid.',
      duration: '5 days',
      price: 4500,
      category: 'STCW',
      subject: ['Personal survival', 'Fire fighting'],
      isActive: true,
      courseImg: { width: 640, height: 320 },
    });
    const { filename, url } = body.data.courseImg;
    expect(filename).toMatch(/^[0-9a-f-]{36}\.webp$/);
    expect(url).toBe(`/api/uploads/courseImg/${filename}`);

    // One new file, the resized one: the upload itself is not kept.
    expect((await storedImages())).toEqual([...before, filename].sort());
    const stored = await readStored(portal.runtime.files, 'courseImg', filename);
    expect(await imageInfo(stored)).toEqual({ format: 'webp', width: 640, height: 320 });
    expect(stored.length).toBeLessThan(photo.length);

    const row = await courseRow(body.data._id);
    expect(row).toMatchObject({ imageFile: filename, imageWidth: 640, imageHeight: 320, price: 4500, isActive: true });
    expect(row!.subjects).toEqual(['Personal survival', 'Fire fighting']);

    // Served publicly, as an image.
    const served = await portal.app.inject(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('accepts PNG, GIF and WebP as well, whatever the file is called', async ({ postCourse }) => {
    for (const format of ['png', 'gif', 'webp'] as const) {
      const res = await postCourse([...fields({ title: `Course in ${format}` }), imagePart(await imageOf(format, 900, 600), 'x.jpg')]);
      expect(res.statusCode, format).toBe(201);
      expect(res.json().data.courseImg).toMatchObject({ width: 640, height: 320 });
    }
  });

  it('never enlarges a small image: it is cropped to the same shape at its own scale', async ({ portal, postCourse }) => {
    const res = await postCourse([...fields(), imagePart(await imageOf('png', 300, 300))]);
    expect(res.statusCode).toBe(201);
    const { filename, width, height } = res.json().data.courseImg;
    expect({ width, height }).toEqual({ width: 300, height: 150 });
    expect(await imageInfo(await readStored(portal.runtime.files, 'courseImg', filename))).toMatchObject({ width: 300, height: 150 });
  });

  it('requires an image', async ({ courseCount, postCourse, storedImages }) => {
    const before = { files: (await storedImages()), rows: await courseCount() };
    for (const parts of [fields(), [...fields(), { name: 'courseImg', file: Buffer.alloc(0), filename: '' }]]) {
      const res = await postCourse(parts);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: C.imageRequired, error: C.imageRequired });
    }
    expect((await storedImages())).toEqual(before.files);
    expect(await courseCount()).toBe(before.rows);
  });

  it('refuses HTML renamed .png, a PDF and bytes that only start like an image with 415, keeping nothing', async ({ courseCount, postCourse, storedImages }) => {
    const before = { files: (await storedImages()), rows: await courseCount() };
    const fakePng = Buffer.concat([(await imageOf('png', 10, 10)).subarray(0, 16), Buffer.from('garbage'.repeat(50))]);
    for (const file of [HTML, PDF, fakePng]) {
      const res = await postCourse([...fields(), imagePart(file, 'cover.png', 'image/png')]);
      expect(res.statusCode).toBe(415);
      const body = res.json();
      expect(body.message).toBe(C.imageUnreadable);
      expect(body.error).toBe(C.imageUnreadable);
    }
    expect((await storedImages())).toEqual(before.files);
    expect(await courseCount()).toBe(before.rows);
  });

  it('refuses an image over the size limit with 413, keeping nothing', async ({ photo, postCourse, storedImages }) => {
    const before = (await storedImages());
    const big = Buffer.concat([photo, Buffer.alloc(COURSE_IMAGE_MAX_BYTES)]);
    const res = await postCourse([...fields(), imagePart(big)]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ message: C.imageTooLarge, error: C.imageTooLarge });
    expect((await storedImages())).toEqual(before);
  });

  it('refuses bad fields with the form’s message, and keeps neither the image nor a row', async ({ courseCount, photo, postCourse, storedImages }) => {
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ title: undefined }, C.titleRequired],
      [{ title: '   ' }, C.titleRequired],
      [{ duration: '' }, C.durationRequired],
      [{ category: undefined }, C.categoryRequired],
      [{ description: '' }, C.descriptionRequired],
      [{ price: undefined }, C.priceRequired],
      [{ price: 'free' }, C.priceInvalid],
      [{ price: '-5' }, C.priceInvalid],
      [{ price: '12.345' }, C.priceInvalid],
      [{ price: '1e3' }, C.priceInvalid],
      [{ price: '99999999' }, C.priceTooHigh],
      [{ subject: undefined }, C.subjectsRequired],
      [{ subject: 'Fire fighting' }, C.subjectsNotList],
      [{ subject: '{"a":1}' }, C.subjectsNotList],
      [{ subject: '[]' }, C.subjectsRequired],
      [{ subject: '["Fire", ""]' }, C.subjectRequired],
      [{ subject: '["Fire", 42]' }, MESSAGES.validation.mustBeText('Subject')],
      [{ subject: JSON.stringify(Array.from({ length: 51 }, (_, i) => `S${i}`)) }, C.tooManySubjects(50)],
      [{ title: 'x'.repeat(151) }, MESSAGES.validation.tooLong('Title', 150)],
      [{ title: 'Basic\u202Eevil' }, MESSAGES.validation.badCharacters('Title')],
      // A certificate could not print it.
      [{ title: 'Fire Fighting 🔥' }, MESSAGES.validation.titleNotPrintable('Title', '🔥')],
      [{ description: 'ok\u0000' }, MESSAGES.validation.nulCharacter],
      [{ isActive: 'false' }, MESSAGES.validation.unknownFields(['isActive'])],
    ];
    const before = { files: (await storedImages()), rows: await courseCount() };
    for (const [overrides, message] of cases) {
      const res = await postCourse([...fields(overrides), imagePart(photo)]);
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json(), JSON.stringify(overrides)).toMatchObject({ message, error: message });
    }
    expect((await storedImages())).toEqual(before.files);
    expect(await courseCount()).toBe(before.rows);
  });

  it('is for administrators only, and a refused caller’s upload is never stored', async ({ courseCount, learner, photo, postCourse, storedImages }) => {
    const before = { files: (await storedImages()), rows: await courseCount() };
    const visitor = await postCourse([...fields(), imagePart(photo)], null);
    expect(visitor.statusCode).toBe(401);
    const learnerTry = await postCourse([...fields(), imagePart(photo)], learner);
    expect(learnerTry.statusCode).toBe(403);
    expect(learnerTry.json()).toMatchObject({ message: MESSAGES.common.forbidden, error: MESSAGES.common.forbidden });
    expect((await storedImages())).toEqual(before.files);
    expect(await courseCount()).toBe(before.rows);
  });

  it('refuses a body that is not multipart, and a second image', async ({ admin, bearer, photo, portal, postCourse, storedImages }) => {
    const json = await portal.app.inject({ method: 'POST', url: '/api/courses', headers: bearer(admin), payload: { title: 'x' } });
    expect(json.statusCode).toBe(415);
    const before = (await storedImages());
    const two = await postCourse([...fields(), imagePart(photo), imagePart(photo)]);
    expect(two.statusCode).toBe(413);
    expect((await storedImages())).toEqual(before);
  });
});

describe('editing a course', () => {

  it('replaces the image and removes the old one after the change', async ({ courseRow, putCourse, storedImages, newCourse }) => {
    const course = await newCourse();
    const res = await putCourse(course._id, [
      ...fields({ title: 'Advanced Fire Fighting', price: '5200.50', subject: '["Tactics"]' }),
      imagePart(await imageOf('png', 800, 800)),
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe(C.updated);
    expect(body.data).toMatchObject({ title: 'Advanced Fire Fighting', price: 5200.5, subject: ['Tactics'] });
    const replaced = body.data.courseImg.filename;
    expect(replaced).not.toBe(course.courseImg.filename);
    expect((await storedImages())).toContain(replaced);
    expect((await storedImages())).not.toContain(course.courseImg.filename);
    expect(await courseRow(course._id)).toMatchObject({ title: 'Advanced Fire Fighting', imageFile: replaced });
  });

  it('keeps the image when none comes (REST, or tRPC courses.update)', async ({ admin, portal, putCourse, storedImages, newCourse }) => {
    const course = await newCourse();
    const res = await putCourse(course._id, [...fields({ title: 'Renamed' }), { name: 'courseImg', value: course.courseImg.filename }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.courseImg.filename).toBe(course.courseImg.filename);

    const result = await portal.caller(sessionOf(admin)).courses.update({
      courseId: course._id,
      title: 'Renamed again',
      description: 'New text',
      duration: '3 days',
      price: 0,
      category: 'Safety',
      subjects: ['One'],
    });
    expect(result.message).toBe(C.updated);
    expect(result.course).toMatchObject({ title: 'Renamed again', price: 0, subjects: ['One'], image: { filename: course.courseImg.filename } });
    expect((await storedImages())).toContain(course.courseImg.filename);
  });

  it('refuses an unknown course (404) or bad fields (400), keeping the old image and dropping the new one', async ({ admin, courseRow, learner, photo, portal, putCourse, storedImages, newCourse }) => {
    const course = await newCourse();
    const before = (await storedImages());
    const missing = await putCourse('00000000-0000-4000-8000-000000000000', [...fields(), imagePart(photo)]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: C.notFound, error: C.notFound });
    const bad = await putCourse(course._id, [...fields({ price: 'lots' }), imagePart(photo)]);
    expect(bad.statusCode).toBe(400);
    const badId = await putCourse('not-a-uuid', [...fields(), imagePart(photo)]);
    expect(badId.statusCode).toBe(400);
    expect((await storedImages())).toEqual(before);
    expect((await courseRow(course._id))!.title).toBe('Fire Fighting');

    await expect(
      portal.caller(sessionOf(admin)).courses.update({
        courseId: course._id,
        title: '',
        description: 'x',
        duration: 'x',
        price: -1,
        category: 'x',
        subjects: [],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      portal.caller(sessionOf(learner)).courses.update({
        courseId: course._id,
        title: 'x',
        description: 'x',
        duration: 'x',
        price: 1,
        category: 'x',
        subjects: ['x'],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('activating and deactivating', () => {
  it('switches a course through REST (POST Deactive, PUT activate), and says so when nothing changes', async ({ admin, bearer, courseRow, db, portal }) => {
    const course = await createCourse(db);
    const off = await portal.app.inject({ method: 'POST', url: `/api/courses/Deactive/${course.id}`, headers: bearer(admin) });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: C.deactivated, data: { _id: course.id, isActive: false } });
    expect((await courseRow(course.id))!.isActive).toBe(false);

    const again = await portal.app.inject({ method: 'POST', url: `/api/courses/Deactive/${course.id}`, headers: bearer(admin) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: C.alreadyInactive });

    const on = await portal.app.inject({ method: 'PUT', url: `/api/courses/activate/${course.id}`, headers: bearer(admin) });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ message: C.activated, data: { isActive: true } });
    expect((await courseRow(course.id))!.isActive).toBe(true);
  });

  it('works through tRPC, for administrators only, and 404s an unknown course', async ({ admin, bearer, courseRow, db, learner, portal }) => {
    const course = await createCourse(db);
    const caller = portal.caller(sessionOf(admin));
    expect(await caller.courses.deactivate({ courseId: course.id })).toMatchObject({ message: C.deactivated, course: { isActive: false } });
    await expect(caller.courses.deactivate({ courseId: course.id })).rejects.toMatchObject({ code: 'CONFLICT', message: C.alreadyInactive });
    expect(await caller.courses.activate({ courseId: course.id })).toMatchObject({ message: C.activated });
    await expect(caller.courses.activate({ courseId: course.id })).rejects.toMatchObject({ code: 'CONFLICT', message: C.alreadyActive });
    await expect(caller.courses.activate({ courseId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(portal.caller(sessionOf(learner)).courses.deactivate({ courseId: course.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await courseRow(course.id))!.isActive).toBe(true);
    const rest = await portal.app.inject({ method: 'POST', url: `/api/courses/Deactive/${course.id}`, headers: bearer(learner) });
    expect(rest.statusCode).toBe(403);
    const bad = await portal.app.inject({ method: 'PUT', url: `/api/courses/activate/${encodeURIComponent("1' or 1=1")}`, headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the catalogue', () => {
  it('shows active courses only, newest first, to visitors (tRPC and both REST spellings)', async ({ db, portal }) => {
    const shown = await createCourse(db, { createdAt: new Date(Date.now() + 3600_000) });
    const hidden = await createCourse(db, { isActive: false });
    invalidateCatalogue(portal.runtime); // the courses were written straight to the database
    const list = await portal.caller().courses.catalogue();
    expect(list[0]!.id).toBe(shown.id);
    expect(list.map((c) => c.id)).not.toContain(hidden.id);
    expect(list.every((c) => c.isActive)).toBe(true);

    for (const url of ['/api/courses/active', '/api/Courses/active']) {
      const res = await portal.app.inject(url);
      expect(res.statusCode).toBe(200);
      const ids = res.json().data.map((c: { _id: string }) => c._id);
      expect(ids).toContain(shown.id);
      expect(ids).not.toContain(hidden.id);
      expect(res.json().data.find((c: { _id: string }) => c._id === shown.id)).toMatchObject({
        title: shown.title,
        subject: shown.subjects,
        courseImg: null,
        isActive: true,
      });
    }
  });

  it('answers 304 to a client holding the current version, and a new version after any change', async ({ admin, db, portal }) => {
    const first = await portal.app.inject('/api/courses/active');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"courses-/);
    expect(first.headers['cache-control']).toBe('public, no-cache');

    const again = await portal.app.inject({ url: '/api/courses/active', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    // A deactivation here shows at once.
    const course = await createCourse(db);
    await portal.caller(sessionOf(admin)).courses.activate({ courseId: course.id }).catch(() => undefined);
    await portal.caller(sessionOf(admin)).courses.deactivate({ courseId: course.id });
    const changed = await portal.app.inject({ url: '/api/courses/active', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().data.map((c: { _id: string }) => c._id)).not.toContain(course.id);
  });

  it('is sent compressed to clients that accept it (brotli, gzip), the same JSON as plain', async ({ portal }) => {
    const plain = await portal.app.inject({ url: '/api/courses/active', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const br = await portal.app.inject({ url: '/api/courses/active', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await portal.app.inject({ url: '/api/courses/active', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const refused = await portal.app.inject({ url: '/api/courses/active', headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });

  it('sees a change written elsewhere (another instance) within a second', async ({ portal }) => {
    // The portal's clock is the test's: the second passes at once.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await portal.caller().courses.catalogue();
      const course = await createCourse(portal.runtime.db);
      vi.setSystemTime(Date.now() + CATALOGUE_RECHECK_MS);
      expect((await portal.caller().courses.catalogue()).map((c) => c.id)).toContain(course.id);
      const res = await portal.app.inject('/api/courses/active');
      expect(res.json().data.map((c: { _id: string }) => c._id)).toContain(course.id);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lists every course for administrators (REST { data } and tRPC), and gets one', async ({ admin, bearer, db, learner, portal }) => {
    const inactive = await createCourse(db, { isActive: false });
    const res = await portal.app.inject({ url: '/api/courses', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { _id: string }) => c._id)).toContain(inactive.id);
    expect((await portal.app.inject({ url: '/api/courses', headers: bearer(learner) })).statusCode).toBe(403);
    expect((await portal.app.inject({ url: '/api/courses' })).statusCode).toBe(401);

    const caller = portal.caller(sessionOf(admin));
    expect((await caller.courses.adminList()).map((c) => c.id)).toContain(inactive.id);
    expect(await caller.courses.adminGet({ courseId: inactive.id })).toMatchObject({ id: inactive.id, isActive: false });
    await expect(caller.courses.adminGet({ courseId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: C.notFound,
    });
    await expect(portal.caller(sessionOf(learner)).courses.adminList()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

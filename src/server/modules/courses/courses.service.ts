import { MESSAGES } from '../../../shared/messages.ts';
import { COURSE_IMAGE_BOX, type TCourse, type TCourseForm, type TCourseResult } from '../../../shared/schemas/course.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { storeImageCover, type TStoredImage } from '../../lib/files/images.ts';
import type { TStoredFile } from '../../lib/files/storage.ts';
import { fileUrl } from '../../lib/files/file-urls.ts';
import {
  findActive,
  findAll,
  findByIdForShare,
  findById,
  findCatalogueVersion,
  findImageFileNames,
  insertCourse,
  setActive,
  updateCourse as updateCourseRow,
  type TCourseRow,
} from './courses.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'files' | 'jwtSecret' | 'logger'>;

export type { TCourseRow };

/** The DTO every screen reads; the image URL is public (course images are shown to visitors). */
export function toCourse(deps: Pick<AppDeps, 'jwtSecret'>, row: TCourseRow): TCourse {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    duration: row.duration,
    price: row.price,
    category: row.category,
    subjects: row.subjects,
    image: row.imageFile
      ? {
          filename: row.imageFile,
          url: fileUrl(deps, 'courseImg', row.imageFile),
          width: row.imageWidth,
          height: row.imageHeight,
        }
      : null,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// The public catalogue

/** How long this process trusts its copy of the catalogue before asking the database again. */
export const CATALOGUE_RECHECK_MS = 1000;

export type TCatalogue = {
  /** A weak validator: the same while the active courses are the same. */
  etag: string;
  courses: TCourse[];
  /** Answers derived from this version (the REST body, compressed, say), made once. */
  memo(key: string, make: () => Buffer): Buffer;
};

type TCatalogueCache = {
  version?: string;
  catalogue?: TCatalogue;
  checkedAt: number;
  /** Moves on every change made here: a read begun before it must not be kept. */
  generation: number;
  loading?: { generation: number; promise: Promise<TCatalogue> };
};

// One cache per database, so several portals in one process (tests) never share one.
const catalogueCaches = new WeakMap<object, TCatalogueCache>();
const cacheOf = (deps: Pick<AppDeps, 'db'>) => {
  let cache = catalogueCaches.get(deps.db);
  if (!cache) catalogueCaches.set(deps.db, (cache = { checkedAt: 0, generation: 0 }));
  return cache;
};

/**
 * Forgets this process's copy, so the next read sees a change made here at once (and, in tests,
 * one written straight to the database).
 */
export function invalidateCatalogue(deps: Pick<AppDeps, 'db'>) {
  const cache = cacheOf(deps);
  cache.generation += 1;
  cache.checkedAt = 0;
  cache.version = undefined;
  cache.catalogue = undefined;
}

async function loadCatalogue(deps: Pick<AppDeps, 'db' | 'jwtSecret'>, cache: TCatalogueCache): Promise<TCatalogue> {
  const generation = cache.generation;
  const { active, newest } = await findCatalogueVersion(deps.db);
  const version = `${active}-${newest}`;
  if (cache.catalogue && cache.version === version) {
    cache.checkedAt = Date.now();
    return cache.catalogue;
  }
  const rows = await findActive(deps.db);
  const rendered = new Map<string, Buffer>();
  const catalogue: TCatalogue = {
    etag: `W/"courses-${Number(newest).toString(36)}-${active}"`,
    courses: rows.map((row) => toCourse(deps, row)),
    memo(key, make) {
      let value = rendered.get(key);
      if (value === undefined) rendered.set(key, (value = make()));
      return value;
    },
  };
  // A change committed between the two reads leaves an older version with newer rows: the next
  // check sees the newer version and reloads, so nothing stale outlives one recheck.
  if (cache.generation === generation) Object.assign(cache, { version, catalogue, checkedAt: Date.now() });
  return catalogue;
}

/**
 * The active courses, newest first, as visitors and learners see them. The database is asked
 * for the catalogue's version at most once a second per process (changes made by this process
 * show at once), and the courses are read again only when that version moved.
 */
export async function getCatalogue(deps: Pick<AppDeps, 'db' | 'jwtSecret'>): Promise<TCatalogue> {
  const cache = cacheOf(deps);
  if (cache.catalogue && Date.now() - cache.checkedAt < CATALOGUE_RECHECK_MS) return cache.catalogue;
  // Requests arriving together share one look at the database.
  if (cache.loading?.generation !== cache.generation) {
    const loading = {
      generation: cache.generation,
      promise: loadCatalogue(deps, cache).finally(() => {
        if (cache.loading === loading) cache.loading = undefined;
      }),
    };
    cache.loading = loading;
  }
  return cache.loading.promise;
}

// ---------------------------------------------------------------------------------------------
// Administration

export async function listAllCourses(deps: Pick<AppDeps, 'db' | 'jwtSecret'>): Promise<TCourse[]> {
  return (await findAll(deps.db)).map((row) => toCourse(deps, row));
}

export async function getCourse(deps: Pick<AppDeps, 'db' | 'jwtSecret'>, courseId: string): Promise<TCourse> {
  const row = await findById(deps.db, courseId);
  if (!row) throw notFound(MESSAGES.courses.notFound);
  return toCourse(deps, row);
}

/** Turns an upload into the stored card image; the upload itself is removed either way. */
async function prepareImage(deps: Deps, upload: TStoredFile): Promise<TStoredImage> {
  try {
    return await storeImageCover(deps.files, upload, COURSE_IMAGE_BOX, { unreadable: MESSAGES.courses.imageUnreadable });
  } finally {
    await deps.files.remove(upload.area, upload.name);
  }
}

const imageValues = (image: TStoredImage) => ({ imageFile: image.name, imageWidth: image.width, imageHeight: image.height });

/**
 * Creates a course from the form and its image (required). The image is stored once, resized to
 * the cards' size; if the course is not written, neither file stays.
 */
export async function createCourse(
  deps: Deps,
  admin: { id: string },
  form: TCourseForm,
  upload: TStoredFile | undefined,
): Promise<TCourseResult> {
  if (!upload) {
    throw new AppError('BAD_REQUEST', MESSAGES.courses.imageRequired, { fields: { courseImg: MESSAGES.courses.imageRequired } });
  }
  const image = await prepareImage(deps, upload);
  try {
    const row = await insertCourse(deps.db, { ...form, ...imageValues(image) });
    invalidateCatalogue(deps);
    deps.logger.info({ courseId: row.id, by: admin.id }, 'course created');
    return { message: MESSAGES.courses.created, course: toCourse(deps, row) };
  } catch (error) {
    await deps.files.remove(image.area, image.name);
    throw error;
  }
}

/**
 * Replaces a course's fields, and its image when a new one comes. The old image is removed only
 * after the change has committed; a failed change removes the new one instead.
 */
export async function updateCourse(
  deps: Deps,
  admin: { id: string },
  courseId: string,
  form: TCourseForm,
  upload?: TStoredFile,
): Promise<TCourseResult> {
  const image = upload ? await prepareImage(deps, upload) : undefined;
  let changed: { before: TCourseRow; after: TCourseRow } | undefined;
  try {
    changed = await deps.db.transaction((tx) =>
      updateCourseRow(tx, courseId, { ...form, ...(image ? imageValues(image) : {}) }),
    );
  } catch (error) {
    if (image) await deps.files.remove(image.area, image.name);
    throw error;
  }
  if (!changed) {
    if (image) await deps.files.remove(image.area, image.name);
    throw notFound(MESSAGES.courses.notFound);
  }
  invalidateCatalogue(deps);
  const replaced = changed.before.imageFile;
  if (image && replaced && replaced !== image.name) {
    await deps.files.remove('courseImg', replaced).catch((err: unknown) => {
      deps.logger.warn({ err, courseId, file: replaced }, 'replaced course image not removed');
    });
  }
  deps.logger.info({ courseId, by: admin.id, image: Boolean(image) }, 'course updated');
  return { message: MESSAGES.courses.updated, course: toCourse(deps, changed.after) };
}

/**
 * Activates or deactivates a course. Deactivating hides it from the catalogue and the dashboard
 * and stops new requests; learners already approved keep their access.
 */
export async function setCourseActive(
  deps: Deps,
  admin: { id: string },
  courseId: string,
  active: boolean,
): Promise<TCourseResult> {
  const row = await setActive(deps.db, courseId, active);
  if (!row) {
    const existing = await findById(deps.db, courseId);
    if (!existing) throw notFound(MESSAGES.courses.notFound);
    throw new AppError('CONFLICT', active ? MESSAGES.courses.alreadyActive : MESSAGES.courses.alreadyInactive);
  }
  invalidateCatalogue(deps);
  deps.logger.info({ courseId, by: admin.id, active }, active ? 'course activated' : 'course deactivated');
  return { message: active ? MESSAGES.courses.activated : MESSAGES.courses.deactivated, course: toCourse(deps, row) };
}

// ---------------------------------------------------------------------------------------------
// For enrolment

/**
 * Inside the caller's transaction: the course's state, held so that it cannot be deactivated
 * until the caller commits (a request and a deactivation never cross).
 */
export async function lockCourseForEnrolment(tx: Executor, courseId: string): Promise<{ id: string; isActive: boolean } | undefined> {
  return findByIdForShare(tx, courseId);
}

/** The names of the course images courses point to (for the sweep of left-over uploads). */
export async function storedCourseImageNames(deps: Pick<AppDeps, 'db'>): Promise<ReadonlySet<string>> {
  return new Set(await findImageFileNames(deps.db));
}

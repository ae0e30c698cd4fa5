import { MESSAGES } from '../../../shared/messages.ts';
import { COURSE_IMAGE_BOX, type TCourse, type TCourseForm, type TCourseResult } from '../../../shared/schemas/course.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { storeImageCover, type TStoredImage } from '../../lib/files/images.ts';
import type { TStoredFile } from '../../lib/files/storage.ts';
import type { TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { invalidateCatalogue, toCourse } from './catalogue.service.ts';
import {
  findAll,
  findCatalogueVersion,
  findById,
  findImageFileNames,
  insertCourse,
  setActive,
  updateCourse as updateCourseRow,
  type TCourseRow,
} from './courses.repository.ts';

/* Course administration: create, edit, activate and deactivate; every change refreshes the catalogue. */

type Deps = Pick<AppDeps, 'db' | 'files' | 'jwtSecret' | 'logger'>;
export async function listAllCourses(deps: Pick<AppDeps, 'db' | 'jwtSecret'>): Promise<TCourse[]> {
  return (await findAll(deps.db)).map((row) => toCourse(deps, row));
}

/** How many courses are active (the overview's figure). */
export async function countActiveCourses(deps: Pick<AppDeps, 'db'>): Promise<number> {
  return (await findCatalogueVersion(deps.db)).active;
}

/** Turns an upload into the stored card image; the upload itself is removed either way. */
async function prepareImage(deps: Deps, upload: TStoredFile): Promise<TStoredImage> {
  try {
    return await storeImageCover(deps.files, upload, COURSE_IMAGE_BOX, { unreadable: MESSAGES.courses.imageUnreadable });
  } finally {
    await deps.files.remove(upload.area, upload.name);
  }
}

/** What a course's audit entry keeps of it: the form's fields, its image and whether it is active. */
function auditedCourse(row: TCourseRow) {
  return {
    title: row.title,
    description: row.description,
    duration: row.duration,
    price: row.price,
    category: row.category,
    subjects: row.subjects,
    imageFile: row.imageFile,
    isActive: row.isActive,
  };
}

const imageValues = (image: TStoredImage) => ({ imageFile: image.name, imageWidth: image.width, imageHeight: image.height });

/**
 * Creates a course from the form and its image (required). The image is stored once, resized to
 * the cards' size; if the course is not written, neither file stays.
 */
export async function createCourse(
  deps: Deps,
  actor: TStaffActor,
  form: TCourseForm,
  upload: TStoredFile | undefined,
): Promise<TCourseResult> {
  if (!upload) {
    throw new AppError('BAD_REQUEST', MESSAGES.courses.imageRequired, { fields: { courseImg: MESSAGES.courses.imageRequired } });
  }
  const image = await prepareImage(deps, upload);
  try {
    const row = await deps.db.transaction(async (tx) => {
      const inserted = await insertCourse(tx, { ...form, ...imageValues(image) });
      await recordAudit(tx, actorOfStaff(actor), { action: 'course.create', subjectType: 'course', subjectId: inserted.id, before: null, after: auditedCourse(inserted) });
      return inserted;
    });
    invalidateCatalogue(deps);
    deps.logger.info({ courseId: row.id, by: actor.id }, 'course created');
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
  actor: TStaffActor,
  courseId: string,
  form: TCourseForm,
  upload?: TStoredFile,
): Promise<TCourseResult> {
  const image = upload ? await prepareImage(deps, upload) : undefined;
  let changed: { before: TCourseRow; after: TCourseRow } | undefined;
  try {
    changed = await deps.db.transaction(async (tx) => {
      const result = await updateCourseRow(tx, courseId, { ...form, ...(image ? imageValues(image) : {}) });
      if (result) {
        await recordAudit(tx, actorOfStaff(actor), {
          action: 'course.update',
          subjectType: 'course',
          subjectId: courseId,
          before: auditedCourse(result.before),
          after: auditedCourse(result.after),
        });
      }
      return result;
    });
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
  deps.logger.info({ courseId, by: actor.id, image: Boolean(image) }, 'course updated');
  return { message: MESSAGES.courses.updated, course: toCourse(deps, changed.after) };
}

/**
 * Activates or deactivates a course. Deactivating hides it from the catalogue and the dashboard
 * and stops new requests; learners already approved keep their access.
 */
export async function setCourseActive(
  deps: Deps,
  actor: TStaffActor,
  courseId: string,
  active: boolean,
): Promise<TCourseResult> {
  const row = await deps.db.transaction(async (tx) => {
    const changed = await setActive(tx, courseId, active);
    if (changed) {
      await recordAudit(tx, actorOfStaff(actor), {
        action: active ? 'course.activate' : 'course.deactivate',
        subjectType: 'course',
        subjectId: courseId,
        before: { isActive: !active },
        after: { isActive: active },
      });
    }
    return changed;
  });
  if (!row) {
    const existing = await findById(deps.db, courseId);
    if (!existing) throw notFound(MESSAGES.courses.notFound);
    throw new AppError('CONFLICT', active ? MESSAGES.courses.alreadyActive : MESSAGES.courses.alreadyInactive);
  }
  invalidateCatalogue(deps);
  deps.logger.info({ courseId, by: actor.id, active }, active ? 'course activated' : 'course deactivated');
  return { message: active ? MESSAGES.courses.activated : MESSAGES.courses.deactivated, course: toCourse(deps, row) };
}

// ---------------------------------------------------------------------------------------------
// For enrolment

/** The names of the course images courses point to (for the sweep of left-over uploads). */
export async function storedCourseImageNames(deps: Pick<AppDeps, 'db'>): Promise<ReadonlySet<string>> {
  return new Set(await findImageFileNames(deps.db));
}

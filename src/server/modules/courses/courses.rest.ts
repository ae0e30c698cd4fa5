import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../shared/messages.ts';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import {
  COURSE_IMAGE_MAX_BYTES,
  type TCourseForm,
  type TCourseResult,
} from '../../../shared/schemas/course.ts';
import { COURSE_SPEC_NAMES, toSpecCourse } from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { DONE, multipartForm, refusals } from '../../lib/rest-schema.ts';
import { staffActor } from '../../lib/session-user.ts';
import { compressBrotli, compressGzip, pickEncoding } from '../../lib/content-encoding.ts';
import { RASTER_KINDS } from '../../lib/files/file-kinds.ts';
import { firstFile, withUploadForm, type TUploadField } from '../../lib/files/multipart.ts';
import type { TStoredFile } from '../../lib/files/storage.ts';
import { getCatalogue } from './catalogue.service.ts';
import { ZCourseMultipartFields } from './course-multipart-fields.ts';
import { createCourse, listAllCourses, setCourseActive, updateCourse } from './course-admin.service.ts';

const ZIdParams = requestObject({ id: ZId });

/** The form's file field: the course image, as the spec names it (`courseImg`). */
const IMAGE_FIELD = COURSE_SPEC_NAMES.image;

/** The course form: its text fields, read with ZCourseMultipartFields, and its image. */
const COURSE_FORM = multipartForm(ZCourseMultipartFields, { [IMAGE_FIELD]: 'The course image (JPEG, PNG, GIF, WebP or BMP).' });

const COURSE_IMAGE_UPLOAD: Record<typeof IMAGE_FIELD, TUploadField> = {
  [IMAGE_FIELD]: {
    area: 'courseImg',
    maxBytes: COURSE_IMAGE_MAX_BYTES,
    kinds: RASTER_KINDS,
    tooLarge: MESSAGES.courses.imageTooLarge,
    wrongType: MESSAGES.courses.imageUnreadable,
  },
};

/** True when the client's copy (If-None-Match) is the current one. */
function isFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

const sendResult = (reply: FastifyReply, result: TCourseResult, status = 200) =>
  reply.status(status).send({ message: result.message, data: toSpecCourse(result.course) });

/**
 * Reads the course form: its fields checked (an edit form may send the current image's name as
 * text: it means "keep the image"), its image (when one was sent) stored.
 */
const withCourseForm = <T>(request: FastifyRequest, deps: AppDeps, save: (fields: TCourseForm, image: TStoredFile | undefined) => Promise<T>) =>
  withUploadForm(request, deps.files, COURSE_IMAGE_UPLOAD, ZCourseMultipartFields, (form) => save(form.fields, firstFile(form, IMAGE_FIELD)));

/** The spec's course calls (section 7). Errors carry their text in `error` as well as `message`. */
export const coursesRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  // The spec's course form reads `error`; every other screen reads `message`.
  api.addHook('preSerialization', async (_request, reply, payload: unknown) => {
    if (reply.statusCode >= 400 && payload && typeof payload === 'object' && 'message' in payload && !('error' in payload)) {
      return { ...payload, error: (payload as { message: unknown }).message };
    }
    return payload;
  });

  const activeCourses = async (request: FastifyRequest, reply: FastifyReply) => {
    const catalogue = await getCatalogue(deps);
    // Anyone may cache it, but must check back each time: a deactivated course goes at once.
    reply.header('etag', catalogue.etag).header('cache-control', 'public, no-cache');
    if (isFresh(request.headers['if-none-match'], catalogue.etag)) return reply.status(304).send();
    // Rendered and compressed once per version of the catalogue, not once per request.
    const json = () => catalogue.memo('json', () => Buffer.from(JSON.stringify({ data: catalogue.courses.map(toSpecCourse) })));
    const encoding = pickEncoding(request.headers['accept-encoding']);
    reply.header('vary', 'accept-encoding').type('application/json; charset=utf-8');
    if (encoding === 'br') {
      reply.header('content-encoding', 'br');
      return catalogue.memo('br', () => compressBrotli(json()));
    }
    if (encoding === 'gzip') {
      reply.header('content-encoding', 'gzip');
      return catalogue.memo('gzip', () => compressGzip(json()));
    }
    return json();
  };
  const catalogueDoc = { config: { access: 'public' as const }, schema: { summary: 'The active courses (the catalogue); ETag and If-None-Match.', tags: ['Courses'] } };
  api.get('/courses/active', catalogueDoc, activeCourses);
  api.get('/Courses/active', catalogueDoc, activeCourses);

  api.get('/courses', { config: { access: 'admin', permission: 'courses.read' }, schema: { summary: 'Every course, active or not.', tags: ['Courses'] } }, async () => ({ data: (await listAllCourses(deps)).map(toSpecCourse) }));

  api.post('/courses', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Create a course with its image.', tags: ['Courses'], consumes: ['multipart/form-data'], body: COURSE_FORM, response: { 201: DONE, ...refusals({ 413: 'The image is too large.', 415: 'The image cannot be read.' }) } } }, async (request, reply) => {
    const result = await withCourseForm(request, deps, (fields, image) => createCourse(deps, staffActor(request.caller, request.ip), fields, image));
    return sendResult(reply, result, 201);
  });

  api.put('/courses/:id', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Change a course; an image sent replaces the stored one.', tags: ['Courses'], params: ZIdParams, consumes: ['multipart/form-data'], body: COURSE_FORM, response: { ...refusals({ 404: 'No such course.', 413: 'The image is too large.', 415: 'The image cannot be read.' }) } } }, async (request, reply) => {
    const { id } = request.params;
    const result = await withCourseForm(request, deps, (fields, image) => updateCourse(deps, staffActor(request.caller, request.ip), id, fields, image));
    return sendResult(reply, result);
  });

  api.post('/courses/Deactive/:id', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Deactivate a course.', tags: ['Courses'], params: ZIdParams, response: { ...refusals({ 404: 'No such course.', 409: 'Already inactive.' }) } } }, async (request, reply) => {
    const { id } = request.params;
    return sendResult(reply, await setCourseActive(deps, staffActor(request.caller, request.ip), id, false));
  });

  api.put('/courses/activate/:id', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Activate a course.', tags: ['Courses'], params: ZIdParams, response: { ...refusals({ 404: 'No such course.', 409: 'Already active.' }) } } }, async (request, reply) => {
    const { id } = request.params;
    return sendResult(reply, await setCourseActive(deps, staffActor(request.caller, request.ip), id, true));
  });
};

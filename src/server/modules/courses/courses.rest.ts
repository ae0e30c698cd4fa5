import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../shared/messages.ts';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import {
  COURSE_IMAGE_MAX_BYTES,
  type TCourseForm,
  type TCourseResult,
} from '../../../shared/schemas/course.ts';
import { COURSE_SPEC_NAMES, toSpecCourse } from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { staffActor } from '../../lib/session-user.ts';
import { compressBrotli, compressGzip, pickEncoding } from '../../lib/content-encoding.ts';
import { RASTER_KINDS } from '../../lib/files/file-kinds.ts';
import { firstFile, withUpload, type TUploadedForm, type TUploadField } from '../../lib/files/multipart.ts';
import type { TStoredFile } from '../../lib/files/storage.ts';
import { parseInput } from '../../lib/validation.ts';
import { getCatalogue } from './catalogue.service.ts';
import { ZCourseMultipartFields } from './course-multipart-fields.ts';
import { createCourse, listAllCourses, setCourseActive, updateCourse } from './course-admin.service.ts';

const ZIdParams = requestObject({ id: ZId });

/** The form's file field: the course image, as the spec names it (`courseImg`). */
const IMAGE_FIELD = COURSE_SPEC_NAMES.image;

const COURSE_FORM_DOC = { fields: ZCourseMultipartFields, files: { [IMAGE_FIELD]: 'The course image (JPEG, PNG, GIF, WebP or BMP).' } };

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

/** The course form as it arrives: its fields checked, its image (when one was sent) stored. */
function courseForm(form: TUploadedForm<typeof IMAGE_FIELD>): { fields: TCourseForm; image: TStoredFile | undefined } {
  // An edit form may send the current image's name as text: it means "keep the image".
  const { [IMAGE_FIELD]: _keep, ...fields } = form.fields;
  return { fields: parseInput(ZCourseMultipartFields, fields), image: firstFile(form, IMAGE_FIELD) };
}

/** The spec's course calls (section 7). Errors carry their text in `error` as well as `message`. */
export const coursesRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
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
  const catalogueDoc = doc({ summary: 'The active courses (the catalogue); ETag and If-None-Match.', access: 'public', tag: 'Courses' });
  api.get('/courses/active', catalogueDoc, activeCourses);
  api.get('/Courses/active', catalogueDoc, activeCourses);

  api.get('/courses', doc({ summary: 'Every course, active or not.', access: 'admin', permission: 'courses.read', tag: 'Courses' }), async () => ({ data: (await listAllCourses(deps)).map(toSpecCourse) }));

  api.post('/courses', doc({ summary: 'Create a course with its image.', access: 'admin', permission: 'courses.edit', tag: 'Courses', created: true, form: COURSE_FORM_DOC, answers: { 413: 'The image is too large.', 415: 'The image cannot be read.' } }), async (request, reply) => {
    const result = await withUpload(request, deps.files, COURSE_IMAGE_UPLOAD, (form) => {
      const { fields, image } = courseForm(form);
      return createCourse(deps, staffActor(request.caller, request.ip), fields, image);
    });
    return sendResult(reply, result, 201);
  });

  api.put('/courses/:id', doc({ summary: 'Change a course; an image sent replaces the stored one.', access: 'admin', permission: 'courses.edit', tag: 'Courses', params: ZIdParams, form: COURSE_FORM_DOC, answers: { 404: 'No such course.', 413: 'The image is too large.', 415: 'The image cannot be read.' } }), async (request, reply) => {
    const { id } = parseInput(ZIdParams, request.params);
    const result = await withUpload(request, deps.files, COURSE_IMAGE_UPLOAD, (form) => {
      const { fields, image } = courseForm(form);
      return updateCourse(deps, staffActor(request.caller, request.ip), id, fields, image);
    });
    return sendResult(reply, result);
  });

  api.post('/courses/Deactive/:id', doc({ summary: 'Deactivate a course.', access: 'admin', permission: 'courses.edit', tag: 'Courses', params: ZIdParams, answers: { 404: 'No such course.', 409: 'Already inactive.' } }), async (request, reply) => {
    const { id } = parseInput(ZIdParams, request.params);
    return sendResult(reply, await setCourseActive(deps, staffActor(request.caller, request.ip), id, false));
  });

  api.put('/courses/activate/:id', doc({ summary: 'Activate a course.', access: 'admin', permission: 'courses.edit', tag: 'Courses', params: ZIdParams, answers: { 404: 'No such course.', 409: 'Already active.' } }), async (request, reply) => {
    const { id } = parseInput(ZIdParams, request.params);
    return sendResult(reply, await setCourseActive(deps, staffActor(request.caller, request.ip), id, true));
  });
};

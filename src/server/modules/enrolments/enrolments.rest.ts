import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import {
  ZEnrolmentRequestQuery,
  ZEnrolRequest,
  type TEnrolmentRequestItem,
  type TMyEnrolment,
} from '../../../shared/schemas/enrolment.ts';
import { toSpecCourse, withSpecId } from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { DONE, refusals } from '../../lib/rest-schema.ts';
import { pageSizeFromLimit, REST_PAGE_PARAMS } from '../../lib/paging.ts';
import { asksForAPage, sendWholeList } from '../../lib/whole-list.ts';
import { staffActor, type TSessionUser } from '../../lib/session-user.ts';
import {
  acceptRequest,
  listOwnEnrolments,
  rejectRequest,
  requestEnrolment,
  allRequests,
  searchRequests,
} from './enrolments.service.ts';

const V = MESSAGES.validation;
const ZIdParams = requestObject({ id: ZId });

const ZRequestQueryString = requestObject({ search: z.string({ error: V.mustBeText('Search') }).optional(), ...REST_PAGE_PARAMS })
  .transform(pageSizeFromLimit)
  .pipe(ZEnrolmentRequestQuery);

/** The spec's UserCourse (section 3) for the learner's own list: `courseId` is the whole course. */
function toRestOwnEnrolment(user: TSessionUser, enrolment: TMyEnrolment) {
  const { course } = enrolment;
  return withSpecId({
    id: enrolment.id,
    userName: user.name,
    userId: withSpecId({ id: user.id, email: user.email }),
    courseId: toSpecCourse(course),
    courseTitle: course.title,
    courseDescription: course.description,
    courseDuration: course.duration,
    coursePrice: course.price,
    courseCategory: course.category,
    status: enrolment.status,
    isActive: enrolment.status === 'approved',
    hasAccess: enrolment.hasAccess,
    progress: enrolment.progress,
    requestedAt: enrolment.requestedAt,
    decidedAt: enrolment.decidedAt,
  });
}

/** The spec's UserCourse as the administrators' request cards read it. */
function toRestRequest(item: TEnrolmentRequestItem) {
  return withSpecId({
    id: item.id,
    userName: item.user.name,
    userId: withSpecId({ id: item.user.id, email: item.user.email }),
    courseId: item.course.id,
    courseTitle: item.course.title,
    courseDescription: item.course.description,
    courseDuration: item.course.duration,
    coursePrice: item.course.price,
    courseCategory: item.course.category,
    courseIsActive: item.course.isActive,
    status: item.status,
    isActive: item.status === 'approved',
    requestedAt: item.requestedAt,
    decidedAt: item.decidedAt,
  });
}

/** The spec's enrolment calls (section 7, Courses and enrolment). */
export const enrolmentsRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get('/userCourses/user', { config: { access: 'signed-in' }, schema: { summary: 'The caller’s enrolments with their courses and progress.', tags: ['Enrolments'] } }, async (request) => {
    const user = request.caller;
    const own = await listOwnEnrolments(deps, user);
    return { data: own.map((enrolment) => toRestOwnEnrolment(user, enrolment)) };
  });

  api.post('/userCourses', { config: { access: 'signed-in' }, schema: { summary: 'Ask to enrol in a course.', tags: ['Enrolments'], body: ZEnrolRequest, response: { 201: DONE, ...refusals({ 403: 'The account is not approved yet, or is an administrator’s.', 404: 'No such active course.', 409: 'Already asked or enrolled.' }) } } }, async (request, reply) => {
    const { courseId } = request.body;
    const result = await requestEnrolment(deps, request.caller, courseId);
    const { enrolment } = result;
    return reply.status(201).send({
      message: result.message,
      data: withSpecId({ id: enrolment.id, courseId: enrolment.courseId, status: enrolment.status, requestedAt: enrolment.requestedAt }),
    });
  });

  /** Pending requests ("inactive" in the spec), searched and paged with ?search=&page=&pageSize=. */
  api.get('/userCourses/inactive', { config: { access: 'admin', permission: 'enrolments.read' }, schema: { summary: 'Pending enrolment requests, searched; paged with page and limit, the whole list without.', tags: ['Enrolments'], querystring: ZRequestQueryString } }, async (request, reply) => {
    const query = request.query;
    // Without page parameters the whole list is answered, as the spec documents, streamed.
    if (!asksForAPage(request)) {
      return sendWholeList(reply, await allRequests(deps, { status: 'pending', search: query.search }), toRestRequest, 'data');
    }
    const page = await searchRequests(deps, { ...query, status: 'pending' });
    return { data: page.items.map(toRestRequest), total: page.total, page: page.page, pageSize: page.pageSize };
  });

  api.put('/userCourses/activate/:id', { config: { access: 'admin', permission: 'enrolments.decide' }, schema: { summary: 'Accept an enrolment request.', tags: ['Enrolments'], params: ZIdParams, response: { ...refusals({ 404: 'No such request.', 409: 'Already accepted.' }) } } }, async (request) => {
    const { id } = request.params;
    const result = await acceptRequest(deps, staffActor(request.caller, request.ip), id);
    return { message: result.message, data: toRestRequest(result.request) };
  });

  api.put('/userCourses/deactivate/:id', { config: { access: 'admin', permission: 'enrolments.decide' }, schema: { summary: 'Reject an enrolment request (an approved learner loses access).', tags: ['Enrolments'], params: ZIdParams, response: { ...refusals({ 404: 'No such request.', 409: 'Already rejected.' }) } } }, async (request) => {
    const { id } = request.params;
    const result = await rejectRequest(deps, staffActor(request.caller, request.ip), id);
    return { message: result.message, data: toRestRequest(result.request) };
  });
};

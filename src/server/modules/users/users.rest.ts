import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import { ZUserListQuery, type TUserListItem, type TUserPage } from '../../../shared/schemas/users.ts';
import { withSpecId } from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { refusals } from '../../lib/rest-schema.ts';
import { staffActor } from '../../lib/session-user.ts';
import { pageSizeFromLimit, REST_PAGE_PARAMS } from '../../lib/paging.ts';
import { asksForAPage, sendWholeList } from '../../lib/whole-list.ts';
import { allApproved, allUnapproved, approveUser, listApproved, listUnapproved } from './users.service.ts';

const ZListQueryString = requestObject(REST_PAGE_PARAMS).transform(pageSizeFromLimit).pipe(ZUserListQuery);

const ZApproveParams = requestObject({ id: ZId });

/** The spec's documented user row (`_id`, `name`, `email`) plus what a reviewer needs. */
function toRestUser(user: TUserListItem) {
  const { id, ...rest } = user;
  // The id first, where the spec's screens have always found it.
  return withSpecId({ id, ...rest });
}

/** A plain list, as the spec's screens read it; the total rides in X-Total-Count. */
function sendPage(reply: { header(name: string, value: string): unknown }, page: TUserPage) {
  reply.header('x-total-count', String(page.total));
  return page.items.map(toRestUser);
}

/** The spec's Users calls (section 7); all of them are for administrators. */
export const usersRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  // Without page parameters the whole list is answered, as the spec documents, streamed.
  api.get('/user/getUnapprovedUsers', { config: { access: 'admin', permission: 'accounts.read' }, schema: { summary: 'Learners waiting for approval; paged with page and limit, the whole list without.', tags: ['Users'], querystring: ZListQueryString } }, async (request, reply) => {
    const query = request.query;
    if (!asksForAPage(request)) return sendWholeList(reply, await allUnapproved(deps), toRestUser);
    return sendPage(reply, await listUnapproved(deps, query));
  });

  api.get('/user/getApprovedUsers', { config: { access: 'admin', permission: 'accounts.read' }, schema: { summary: 'Approved learners; paged with page and limit, the whole list without.', tags: ['Users'], querystring: ZListQueryString } }, async (request, reply) => {
    const query = request.query;
    if (!asksForAPage(request)) return sendWholeList(reply, await allApproved(deps), toRestUser);
    return sendPage(reply, await listApproved(deps, query));
  });

  api.post('/user/approve-user/:id', { config: { access: 'admin', permission: 'accounts.approve' }, schema: { summary: 'Approve a learner.', tags: ['Users'], params: ZApproveParams, response: { ...refusals({ 404: 'No such user.', 409: 'Already approved.' }) } } }, async (request) => {
    const { id } = request.params;
    const result = await approveUser(deps, staffActor(request.caller, request.ip), id);
    return { message: result.message, user: toRestUser(result.user) };
  });
};

import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requestObject } from '../../../shared/schemas/common.ts';
import { ZProfileByUserRequest, ZProfileListQuery } from '../../../shared/schemas/profile.ts';
import type { AppDeps } from '../../deps.ts';
import { withUpload } from '../../lib/files/multipart.ts';
import { pageSizeFromLimit, REST_PAGE_PARAMS } from '../../lib/paging.ts';
import { requireAdmin, requireUser } from '../../lib/rest-auth.ts';
import { parseInput } from '../../lib/validation.ts';
import { asksForAPage, sendWholeList } from '../../lib/whole-list.ts';
import {
  allProfiles,
  checkProfileCanBeCreated,
  checkProfileCanBeUpdated,
  createProfile,
  getProfileOfUser,
  listProfiles,
  profileUploadRules,
  requireMyProfile,
  updateProfile,
} from './profiles.service.ts';

const ZListQueryString = requestObject({ search: z.string().optional(), ...REST_PAGE_PARAMS })
  .transform(pageSizeFromLimit)
  .pipe(ZProfileListQuery);

/** The spec's Profile calls (section 7), answering with the spec's field names. */
export const profilesRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get('/userProfile', async (request) => ({ data: await requireMyProfile(deps, requireUser(request)) }));

  api.post('/userProfile', async (request, reply) => {
    const user = requireUser(request);
    await checkProfileCanBeCreated(deps, user);
    const saved = await withUpload(request, deps.files, profileUploadRules(deps.env), (form) => createProfile(deps, user, form));
    return reply.status(201).send(saved);
  });

  api.put('/userProfile/update', async (request) => {
    const user = requireUser(request);
    await checkProfileCanBeUpdated(deps, user);
    return withUpload(request, deps.files, profileUploadRules(deps.env), (form) => updateProfile(deps, user, form));
  });

  api.get('/userProfile/getAllUserProfiles', async (request, reply) => {
    const admin = requireAdmin(request);
    const query = parseInput(ZListQueryString, request.query);
    // Without page parameters the whole list is answered, as the spec documents, streamed.
    if (!asksForAPage(request.query)) {
      return sendWholeList(reply, await allProfiles(deps, admin, query.search), (profile) => profile, 'data');
    }
    const page = await listProfiles(deps, admin, query);
    reply.header('x-total-count', String(page.total));
    return { data: page.items, total: page.total, page: page.page, limit: page.pageSize };
  });

  /** One user's profile (administrators; a learner only their own), for the approval screens. */
  api.get('/userProfile/user/:userId', async (request) => {
    const viewer = requireUser(request);
    const { userId } = parseInput(ZProfileByUserRequest, request.params);
    return { data: await getProfileOfUser(deps, viewer, userId) };
  });
};

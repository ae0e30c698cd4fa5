import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestObject } from '../../../shared/schemas/common.ts';
import {
  ZProfileByUserRequest,
  ZProfileCreateFields,
  ZProfileFields,
  ZProfileListQuery,
  type TProfileFileField,
  type TProfileSaved,
} from '../../../shared/schemas/profile.ts';
import {
  fromSpecFields,
  PROFILE_SPEC_NAMES,
  toSpecFieldErrors,
  toSpecFields,
  toSpecProfile,
} from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { DONE, multipartForm, refusals, wireSpelled } from '../../lib/rest-schema.ts';
import { renamingFields } from '../../lib/errors.ts';
import { withUpload, type TUploadedForm } from '../../lib/files/multipart.ts';
import { pageSizeFromLimit, REST_PAGE_PARAMS } from '../../lib/paging.ts';
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

/**
 * The profile form as the spec posts it, for the API document: the fields the service reads,
 * under the spec's names, and the three files.
 */
const profileForm = (fields: typeof ZProfileFields | typeof ZProfileCreateFields) =>
  multipartForm(wireSpelled(fields, PROFILE_SPEC_NAMES), {
    profilePicture: 'A photograph (JPEG or PNG).',
    [PROFILE_SPEC_NAMES.idDocument]: 'The identity document (PDF, JPEG or PNG).',
    signature: 'The signature (JPEG or PNG).',
  });

const ZListQueryString = requestObject({ search: z.string().optional(), ...REST_PAGE_PARAMS })
  .transform(pageSizeFromLimit)
  .pipe(ZProfileListQuery);

/**
 * The profile form as the spec posts it: the multipart reader takes the files under their wire
 * names, the service gets the fields and files under the clear ones, and a refusal names the
 * fields as the client sent them.
 */
function withSpecProfileForm<T>(
  request: FastifyRequest,
  deps: AppDeps,
  save: (form: TUploadedForm<TProfileFileField>) => Promise<T>,
): Promise<T> {
  const rules = toSpecFields(PROFILE_SPEC_NAMES, profileUploadRules(deps.env));
  return renamingFields(
    (fields) => toSpecFieldErrors(PROFILE_SPEC_NAMES, fields),
    () =>
      withUpload(request, deps.files, rules, (form) =>
        save({ fields: fromSpecFields(PROFILE_SPEC_NAMES, form.fields), files: fromSpecFields(PROFILE_SPEC_NAMES, form.files) }),
      ),
  );
}

const toSpecSaved = (saved: TProfileSaved) => ({ message: saved.message, data: toSpecProfile(saved.data) });

/** The spec's Profile calls (section 7), taking and answering the spec's field names. */
export const profilesRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get('/userProfile', { config: { access: 'signed-in' }, schema: { summary: 'The caller’s own profile, with signed links to its files.', tags: ['Profiles'], response: { ...refusals({ 404: 'No profile yet.' }) } } }, async (request) => ({ data: toSpecProfile(await requireMyProfile(deps, request.caller)) }));

  api.post('/userProfile', { config: { access: 'signed-in' }, schema: { summary: 'Create the caller’s profile with its three files.', tags: ['Profiles'], consumes: ['multipart/form-data'], body: profileForm(ZProfileCreateFields), response: { 201: DONE, ...refusals({ 403: 'The e-mail is not verified yet.', 409: 'A profile exists already.', 413: 'A file is too large.', 415: 'A file is not of an accepted type.' }) } } }, async (request, reply) => {
    const user = request.caller;
    await checkProfileCanBeCreated(deps, user);
    const saved = await withSpecProfileForm(request, deps, (form) => createProfile(deps, user, form, request.ip));
    return reply.status(201).send(toSpecSaved(saved));
  });

  api.put('/userProfile/update', { config: { access: 'signed-in' }, schema: { summary: 'Change the caller’s profile; files sent replace the stored ones.', tags: ['Profiles'], consumes: ['multipart/form-data'], body: profileForm(ZProfileFields), response: { ...refusals({ 403: 'The e-mail is not verified yet.', 404: 'No profile yet.', 413: 'A file is too large.', 415: 'A file is not of an accepted type.' }) } } }, async (request) => {
    const user = request.caller;
    await checkProfileCanBeUpdated(deps, user);
    return toSpecSaved(await withSpecProfileForm(request, deps, (form) => updateProfile(deps, user, form, request.ip)));
  });

  api.get('/userProfile/getAllUserProfiles', { config: { access: 'admin', permission: 'accounts.read' }, schema: { summary: 'All profiles, searched; paged with page and limit, the whole list without.', tags: ['Profiles'], querystring: ZListQueryString } }, async (request, reply) => {
    const admin = request.caller;
    const query = request.query;
    // Without page parameters the whole list is answered, as the spec documents, streamed.
    if (!asksForAPage(request)) {
      return sendWholeList(reply, await allProfiles(deps, admin, query.search), toSpecProfile, 'data');
    }
    const page = await listProfiles(deps, admin, query);
    reply.header('x-total-count', String(page.total));
    return { data: page.items.map(toSpecProfile), total: page.total, page: page.page, limit: page.pageSize };
  });

  /** One user's profile (administrators; a learner only their own), for the approval screens. */
  api.get('/userProfile/user/:userId', { config: { access: 'signed-in' }, schema: { summary: 'One user’s profile (administrators; a learner only their own).', tags: ['Profiles'], params: ZProfileByUserRequest, response: { ...refusals({ 404: 'No such profile (also for another learner’s).' }) } } }, async (request) => {
    const { userId } = request.params;
    return { data: toSpecProfile(await getProfileOfUser(deps, request.caller, userId)) };
  });
};

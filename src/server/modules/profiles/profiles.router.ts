import {
  ZProfile,
  ZProfileByUserRequest,
  ZProfileListQuery,
  ZProfilePage,
} from '../../../shared/schemas/profile.ts';
import { authedProcedure, createRouter, staffProcedure } from '../../trpc/init.ts';
import { getMyProfile, getProfileOfUser, listProfiles } from './profiles.service.ts';

/**
 * Reading profiles. Creating and editing go through the REST multipart routes
 * (POST /api/userProfile, PUT /api/userProfile/update), which browsers can upload to with progress.
 */
export const profilesRouter = createRouter({
  /** The caller's profile, or null before they have created one. */
  mine: authedProcedure.output(ZProfile.nullable()).query(({ ctx }) => getMyProfile(ctx.deps, ctx.user)),
  /** Administrators: anyone's profile by user id; a learner: only their own (else NOT_FOUND). */
  byUser: authedProcedure
    .input(ZProfileByUserRequest)
    .output(ZProfile)
    .query(({ ctx, input }) => getProfileOfUser(ctx.deps, ctx.user, input.userId)),
  /** Administrators: all profiles, newest first, with search and pages. */
  list: staffProcedure('accounts.read')
    .input(ZProfileListQuery.optional())
    .output(ZProfilePage)
    .query(({ ctx, input }) => listProfiles(ctx.deps, ctx.user, input ?? {})),
});

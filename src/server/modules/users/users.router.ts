import {
  ZApproveUserRequest,
  ZApproveUserResult,
  ZUserListQuery,
  ZUserPage,
} from '../../../shared/schemas/users.ts';
import { adminProcedure, createRouter } from '../../trpc/init.ts';
import { approveUser, listApproved, listUnapproved } from './users.service.ts';

export const usersRouter = createRouter({
  listUnapproved: adminProcedure
    .input(ZUserListQuery.optional())
    .output(ZUserPage)
    .query(({ ctx, input }) => listUnapproved(ctx.deps, input ?? {})),
  listApproved: adminProcedure
    .input(ZUserListQuery.optional())
    .output(ZUserPage)
    .query(({ ctx, input }) => listApproved(ctx.deps, input ?? {})),
  approve: adminProcedure
    .input(ZApproveUserRequest)
    .output(ZApproveUserResult)
    .mutation(({ ctx, input }) => approveUser(ctx.deps, ctx.user, input.userId)),
});

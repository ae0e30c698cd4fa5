import {
  ZApproveUserRequest,
  ZApproveUserResult,
  ZUserListQuery,
  ZUserPage,
} from '../../../shared/schemas/users.ts';
import { createRouter, staffProcedure } from '../../trpc/init.ts';
import { approveUser, listApproved, listUnapproved } from './users.service.ts';

export const usersRouter = createRouter({
  listUnapproved: staffProcedure('accounts.read')
    .input(ZUserListQuery.optional())
    .output(ZUserPage)
    .query(({ ctx, input }) => listUnapproved(ctx.deps, input ?? {})),
  listApproved: staffProcedure('accounts.read')
    .input(ZUserListQuery.optional())
    .output(ZUserPage)
    .query(({ ctx, input }) => listApproved(ctx.deps, input ?? {})),
  approve: staffProcedure('accounts.approve')
    .input(ZApproveUserRequest)
    .output(ZApproveUserResult)
    .mutation(({ ctx, input }) => approveUser(ctx.deps, ctx.actor, input.userId)),
});

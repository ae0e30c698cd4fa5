import { ZMessageResult } from '../../../shared/schemas/common.ts';
import {
  ZInvitationIdRequest,
  ZInvitationStatus,
  ZInvitationTokenRequest,
  ZStaffInvitation,
  ZStaffInviteRequest,
  ZStaffJoinRequest,
  ZStaffList,
  ZStaffMember,
  ZStaffMemberRequest,
  ZStaffRoleRequest,
} from '../../../shared/schemas/staff.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { createRouter, publicProcedure, staffProcedure } from '../../trpc/init.ts';
import {
  changeStaffRole,
  deactivateStaff,
  invitationStatus,
  inviteStaff,
  joinStaff,
  listStaff,
  reactivateStaff,
  resendInvitation,
  revokeInvitation,
} from './staff.service.ts';

export const staffRouter = createRouter({
  list: staffProcedure('staff.manage')
    .output(ZStaffList)
    .query(({ ctx }) => listStaff(ctx.deps)),
  invite: staffProcedure('staff.manage')
    .input(ZStaffInviteRequest)
    .output(ZStaffInvitation)
    .mutation(({ ctx, input }) => inviteStaff(ctx.deps, ctx.actor, input)),
  resendInvitation: staffProcedure('staff.manage')
    .input(ZInvitationIdRequest)
    .output(ZStaffInvitation)
    .mutation(({ ctx, input }) => resendInvitation(ctx.deps, ctx.actor, input.invitationId)),
  revokeInvitation: staffProcedure('staff.manage')
    .input(ZInvitationIdRequest)
    .output(ZMessageResult)
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(ctx.deps, ctx.actor, input.invitationId);
      return { message: MESSAGES.staff.revoked };
    }),
  changeRole: staffProcedure('staff.manage')
    .input(ZStaffRoleRequest)
    .output(ZStaffMember)
    .mutation(({ ctx, input }) => changeStaffRole(ctx.deps, ctx.actor, input.userId, input.staffRole)),
  deactivate: staffProcedure('staff.manage')
    .input(ZStaffMemberRequest)
    .output(ZStaffMember)
    .mutation(({ ctx, input }) => deactivateStaff(ctx.deps, ctx.actor, input.userId)),
  reactivate: staffProcedure('staff.manage')
    .input(ZStaffMemberRequest)
    .output(ZStaffMember)
    .mutation(({ ctx, input }) => reactivateStaff(ctx.deps, ctx.actor, input.userId)),
  /** The invitation page: whether its link can still be used, for whom and with which role. */
  invitation: publicProcedure
    .input(ZInvitationTokenRequest)
    .output(ZInvitationStatus)
    .query(({ ctx, input }) => invitationStatus(ctx.deps, input.token)),
  join: publicProcedure
    .input(ZStaffJoinRequest)
    .output(ZMessageResult)
    .mutation(({ ctx, input }) => joinStaff(ctx.deps, input, ctx.ip)),
});

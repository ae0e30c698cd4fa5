import { ZMessageResult } from '../../../shared/schemas/common.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import {
  ZConfirmOwnTotpRequest,
  ZFactorIdRequest,
  ZMemberRequest,
  ZOwnPasskeyRequest,
  ZRecoveryCodes,
  ZSecurityOverview,
  ZTotpEnrolment,
  ZWebAuthnOptions,
} from '../../../shared/schemas/second-factor.ts';
import { authedProcedure, createRouter, staffProcedure } from '../../trpc/init.ts';
import {
  confirmOwnTotp,
  finishOwnPasskey,
  ownPasskeyOptions,
  regenerateRecoveryCodes,
  removeOwnFactor,
  resetMemberFactors,
  securityOverview,
  startOwnTotp,
} from './second-factor.service.ts';

/** The account's security page (second factors, recovery codes), for staff and learners alike. */
export const securityRouter = createRouter({
  overview: authedProcedure.output(ZSecurityOverview).query(({ ctx }) => securityOverview(ctx.deps, ctx.user)),
  startTotp: authedProcedure.output(ZTotpEnrolment).mutation(({ ctx }) => startOwnTotp(ctx.deps, ctx.user)),
  confirmTotp: authedProcedure
    .input(ZConfirmOwnTotpRequest)
    .output(ZRecoveryCodes)
    .mutation(({ ctx, input }) => confirmOwnTotp(ctx.deps, ctx.user, ctx.ip, input.code, input.label)),
  passkeyOptions: authedProcedure.output(ZWebAuthnOptions).mutation(({ ctx }) => ownPasskeyOptions(ctx.deps, ctx.user)),
  registerPasskey: authedProcedure
    .input(ZOwnPasskeyRequest)
    .output(ZRecoveryCodes)
    .mutation(({ ctx, input }) => finishOwnPasskey(ctx.deps, ctx.user, ctx.ip, input.response, input.label)),
  removeFactor: authedProcedure
    .input(ZFactorIdRequest)
    .output(ZMessageResult)
    .mutation(async ({ ctx, input }) => {
      await removeOwnFactor(ctx.deps, ctx.user, ctx.ip, input.factorId);
      return { message: MESSAGES.secondFactor.removed };
    }),
  regenerateRecoveryCodes: authedProcedure.output(ZRecoveryCodes).mutation(({ ctx }) => regenerateRecoveryCodes(ctx.deps, ctx.user, ctx.ip)),
  /** An owner resets a member of staff who lost every factor; they enrol again at their next sign-in. */
  resetMemberFactors: staffProcedure('staff.manage')
    .input(ZMemberRequest)
    .output(ZMessageResult)
    .mutation(async ({ ctx, input }) => {
      await resetMemberFactors(ctx.deps, ctx.actor, input.userId);
      return { message: MESSAGES.secondFactor.reset };
    }),
});

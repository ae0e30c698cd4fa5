import {
  ZIdentityCheckRequest,
  ZIdentityCheckView,
  ZIdentityDecision,
  ZIdentityQueuePage,
  ZIdentityQueueQuery,
  ZIdentityReturnRequest,
  ZIdentityVerifyRequest,
} from '../../../shared/schemas/identity.ts';
import { createRouter, staffProcedure } from '../../trpc/init.ts';
import { identityCheckView, identityQueue, returnIdentity, verifyIdentity } from './identity.service.ts';

/** The identity checks: staff who read accounts see the queue and a profile's check; registrars and owners decide. */
export const identityRouter = createRouter({
  queue: staffProcedure('accounts.read')
    .input(ZIdentityQueueQuery.optional())
    .output(ZIdentityQueuePage)
    .query(({ ctx, input }) => identityQueue(ctx.deps, input ?? {})),
  view: staffProcedure('accounts.read')
    .input(ZIdentityCheckRequest)
    .output(ZIdentityCheckView)
    .query(({ ctx, input }) => identityCheckView(ctx.deps, ctx.user, input.userId)),
  verify: staffProcedure('identity.check')
    .input(ZIdentityVerifyRequest)
    .output(ZIdentityDecision)
    .mutation(({ ctx, input }) => verifyIdentity(ctx.deps, ctx.actor, ctx.user, input)),
  return: staffProcedure('identity.check')
    .input(ZIdentityReturnRequest)
    .output(ZIdentityDecision)
    .mutation(({ ctx, input }) => returnIdentity(ctx.deps, ctx.actor, ctx.user, input)),
});

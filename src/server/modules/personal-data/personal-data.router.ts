import { ZErasureRequest, ZErasureResult, ZRetentionTerms } from '../../../shared/schemas/personal-data.ts';
import { authedProcedure, createRouter } from '../../trpc/init.ts';
import { eraseMyData, retentionTerms } from './personal-data.service.ts';

export const personalDataRouter = createRouter({
  /** What an erasure would keep, and for how long. */
  retention: authedProcedure.output(ZRetentionTerms).query(({ ctx }) => retentionTerms(ctx.deps, ctx.user)),

  /** Closes the caller's account and erases their personal data, confirmed with their password. */
  erase: authedProcedure
    .input(ZErasureRequest)
    .output(ZErasureResult)
    .mutation(({ ctx, input }) => eraseMyData(ctx.deps, ctx.user, input, ctx.ip)),
});

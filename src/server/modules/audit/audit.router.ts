import { z } from 'zod';
import { ZAuditChainCheck, ZAuditPage, ZAuditPerson, ZAuditSearch } from '../../../shared/schemas/audit.ts';
import { createRouter, staffProcedure } from '../../trpc/init.ts';
import { auditPeople, checkAuditTrail, searchAudit } from './audit.service.ts';

/** The audit trail's screen: search it, the people in it, and the chain check. Nothing here changes an entry. */
export const auditRouter = createRouter({
  search: staffProcedure('audit.read')
    .input(ZAuditSearch.optional())
    .output(ZAuditPage)
    .query(({ ctx, input }) => searchAudit(ctx.deps, input ?? {})),

  people: staffProcedure('audit.read').output(z.array(ZAuditPerson)).query(({ ctx }) => auditPeople(ctx.deps)),

  checkChain: staffProcedure('audit.read').output(ZAuditChainCheck).mutation(({ ctx }) => checkAuditTrail(ctx.deps)),
});

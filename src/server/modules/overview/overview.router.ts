import { ZAdminFigures } from '../../../shared/schemas/overview.ts';
import { adminProcedure, createRouter } from '../../trpc/init.ts';
import { adminFigures } from './overview.service.ts';

/** The administrators' landing page. */
export const overviewRouter = createRouter({
  figures: adminProcedure.output(ZAdminFigures).query(({ ctx }) => adminFigures(ctx.deps)),
});

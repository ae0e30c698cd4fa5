import { ZAdminFigures } from '../../../shared/schemas/overview.ts';
import { createRouter, staffProcedure } from '../../trpc/init.ts';
import { adminFigures } from './overview.service.ts';

/** The administrators' landing page. */
export const overviewRouter = createRouter({
  figures: staffProcedure('overview.read').output(ZAdminFigures).query(({ ctx }) => adminFigures(ctx.deps)),
});

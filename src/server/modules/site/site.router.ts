import { ZSiteConfig } from '../../../shared/site-config.ts';
import { createRouter, publicProcedure } from '../../trpc/init.ts';

export const siteRouter = createRouter({
  config: publicProcedure.output(ZSiteConfig).query(({ ctx }) => ctx.deps.site),
});

import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';

export const siteRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get('/site-config', async () => ({ data: deps.site }));
};

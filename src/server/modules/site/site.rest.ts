import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';

export const siteRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get('/site-config', doc({ summary: 'The academy’s name, contacts and links.', access: 'public', tag: 'Site' }), async () => ({ data: deps.site }));
};

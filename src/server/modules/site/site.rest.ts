import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';

export const siteRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get('/site-config', { config: { access: 'public' }, schema: { summary: 'The academy’s name, contacts and links.', tags: ['Site'] } }, async () => ({ data: deps.site }));
};

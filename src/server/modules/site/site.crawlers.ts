import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { publicBaseUrl } from '../../env.ts';
import { robotsTxt, sitemapXml } from './site.service.ts';

/** /robots.txt and /sitemap.xml at the site's root, built once from PUBLIC_URL. */
export const siteCrawlers: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const base = publicBaseUrl(deps.env);
  const robots = robotsTxt(base);
  const sitemap = sitemapXml(base);
  const cache = 'public, max-age=3600';
  app.get('/robots.txt', (_request, reply) => reply.header('cache-control', cache).type('text/plain; charset=utf-8').send(robots));
  app.get('/sitemap.xml', (_request, reply) => reply.header('cache-control', cache).type('application/xml; charset=utf-8').send(sitemap));
};

import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { FILE_URL_TTL_SECONDS } from '../../lib/files/signed-url.ts';
import { authorizePublicFile, authorizeSignedFile, type TFileToServe } from '../../lib/files/file-urls.ts';

/** Stored files are served as data, never as something a browser would run. */
function sendStoredFile(deps: AppDeps, reply: FastifyReply, file: TFileToServe, cache: string) {
  reply
    .header('content-type', file.mime)
    .header('content-disposition', `${file.image || file.mime === 'application/pdf' || file.mime.startsWith('video/') ? 'inline' : 'attachment'}; filename="${file.downloadName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', cache);
  return reply.sendFile(file.name, deps.files.areaDir(file.area), { contentType: false, cacheControl: false });
}

export const filesRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get<{ Params: { area: string; name: string }; Querystring: { expires?: string; signature?: string } }>(
    '/files/:area/:name',
    async (request, reply) => {
      const file = authorizeSignedFile(deps, { ...request.params, ...request.query });
      return sendStoredFile(deps, reply, file, `private, max-age=${FILE_URL_TTL_SECONDS}`);
    },
  );

  api.get<{ Params: { area: string; name: string } }>('/uploads/:area/:name', async (request, reply) => {
    const file = authorizePublicFile(request.params);
    return sendStoredFile(deps, reply, file, 'public, max-age=31536000, immutable');
  });
};

import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { z } from 'zod';

const ZSignedQuery = z.object({ expires: z.string(), signature: z.string() });
import { FILE_URL_TTL_SECONDS } from '../../lib/files/signed-url.ts';
import { authorizePublicFile, authorizeSignedFile } from '../../lib/files/file-urls.ts';
import { sendStoredFile } from '../../lib/files/send-file.ts';

export const filesRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get<{ Params: { area: string; name: string }; Querystring: { expires?: string; signature?: string } }>(
    '/files/:area/:name',
    doc({ summary: 'A stored private file (a profile’s picture, document or signature) by its signed link.', access: 'signed link', tag: 'Files', query: ZSignedQuery }),
    async (request, reply) => {
      const file = authorizeSignedFile(deps, { ...request.params, ...request.query });
      return sendStoredFile(deps.files, request, reply, file, `private, max-age=${FILE_URL_TTL_SECONDS}`);
    },
  );

  api.get<{ Params: { area: string; name: string } }>('/uploads/:area/:name', doc({ summary: 'A public file (a course image).', access: 'public', tag: 'Files', answers: { 404: 'No such file.' } }), async (request, reply) => {
    const file = authorizePublicFile(request.params);
    return sendStoredFile(deps.files, request, reply, file, 'public, max-age=31536000, immutable');
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { refusals } from '../../lib/rest-schema.ts';
import { z } from 'zod';

/** The link's signature; a link without one is refused as not valid (404), like an altered one. */
const ZSignedQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });
import { FILE_URL_TTL_SECONDS } from '../../lib/files/signed-url.ts';
import { authorizePublicFile, authorizeSignedFile } from '../../lib/files/file-urls.ts';
import { sendStoredFile } from '../../lib/files/send-file.ts';

export const filesRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get<{ Params: { area: string; name: string }; Querystring: { expires?: string; signature?: string } }>(
    '/files/:area/:name',
    {
      config: { access: 'signed link' },
      schema: {
        summary: 'A stored private file (a profile’s picture, document or signature) by its signed link.',
        tags: ['Files'],
        querystring: ZSignedQuery,
      },
    },
    async (request, reply) => {
      const file = authorizeSignedFile(deps, { ...request.params, ...request.query });
      return sendStoredFile(deps.files, request, reply, file, `private, max-age=${FILE_URL_TTL_SECONDS}`);
    },
  );

  api.get<{ Params: { area: string; name: string } }>('/uploads/:area/:name', { config: { access: 'public' }, schema: { summary: 'A public file (a course image).', tags: ['Files'], response: { ...refusals({ 404: 'No such file.' }) } } }, async (request, reply) => {
    const file = authorizePublicFile(request.params);
    return sendStoredFile(deps.files, request, reply, file, 'public, max-age=31536000, immutable');
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { refusals } from '../../lib/rest-schema.ts';
import { exportMyData } from './personal-data.service.ts';

/** The caller's own data, as one ZIP archive streamed as it is written. */
export const personalDataRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get(
    '/me/data.zip',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'Everything the portal holds about the caller, as one ZIP archive: account, profile, uploaded documents, enrolments, watching, offline downloads, test attempts with the answers given, certificates with their PDFs, reminder choice, consent and audit entries; README.txt and index.json say what each file is. Written as it is sent (no length is known ahead). Recorded in the audit trail. Learners only.',
        tags: ['Your data'],
        response: { ...refusals({ 403: 'A staff account: staff data is not downloaded here.' }) },
      },
    },
    async (request, reply) => {
      const archive = await exportMyData(deps, request.caller, request.ip);
      return reply
        .header('content-disposition', `attachment; filename="${archive.filename}"`)
        .header('cache-control', 'no-store')
        .type('application/zip')
        .send(archive.stream);
    },
  );
};

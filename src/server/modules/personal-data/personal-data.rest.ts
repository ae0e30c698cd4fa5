import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { exportMyData } from './personal-data.service.ts';

/** The caller's own data, as one ZIP archive streamed as it is written. */
export const personalDataRest: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get(
    '/me/data.zip',
    doc({
      summary:
        'Everything the portal holds about the caller, as one ZIP archive: account, profile, uploaded documents, enrolments, watching, offline downloads, test attempts with the answers given, certificates with their PDFs, reminder choice, consent and audit entries; README.txt and index.json say what each file is. Written as it is sent (no length is known ahead). Recorded in the audit trail. Learners only.',
      access: 'signed-in',
      tag: 'Your data',
      answers: { 403: 'A staff account: staff data is not downloaded here.' },
    }),
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

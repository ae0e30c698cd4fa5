import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZCertificateCourseRequest } from '../../../shared/schemas/certificate.ts';
import type { AppDeps } from '../../deps.ts';
import { refusals } from '../../lib/rest-schema.ts';
import { sendStoredFile } from '../../lib/files/send-file.ts';
import { certificatePdf } from './certificate-serving.service.ts';
import { readyCertificateFile } from './certificates.service.ts';

/** The spec's GET /certificate/{courseId} (section 7): `data.pdfPath.filename` of the caller's own certificate. */
export const certificatesRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.get(
    '/certificate/:courseId',
    {
      config: { access: 'signed-in' },
      schema: {
        summary: 'The caller’s certificate of a course, once its PDF is ready: data.pdfPath.filename.',
        tags: ['Certificates'],
        params: ZCertificateCourseRequest,
        response: { ...refusals({ 404: 'Certificate not found.' }) },
      },
    },
    async (request) => {
      const { courseId } = request.params;
      return { data: { pdfPath: { filename: await readyCertificateFile(deps, request.caller, courseId) } } };
    },
  );
};

/**
 * GET /certificates/{filename}, from the site root as the spec's client opens it in a new tab:
 * the PDF to whoever holds its unguessable name, shown in the browser and kept out of shared
 * caches; 410 once the certificate is revoked, or once a re-issue replaced this version's PDF.
 */
export const certificateFiles: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get<{ Params: { filename: string } }>('/certificates/:filename', async (request, reply) => {
    const pdf = await certificatePdf(deps, request.params.filename);
    if (pdf.state === 'revoked') return reply.status(410).header('cache-control', 'no-store').send({ message: MESSAGES.certificate.revoked });
    if (pdf.state === 'superseded-version') {
      return reply.status(410).header('cache-control', 'no-store').send({ message: MESSAGES.certificate.supersededVersion(pdf.currentVersion) });
    }
    return sendStoredFile(
      deps.files,
      request,
      reply,
      { area: 'certificates', name: pdf.name, mime: 'application/pdf', downloadName: `certificate-${pdf.number.replaceAll('/', '-')}.pdf`, image: false },
      'private, no-cache',
    );
  });
};

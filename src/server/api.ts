import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { MESSAGES } from '../shared/messages.ts';
import type { AppDeps } from './deps.ts';
import { AppError } from './lib/errors.ts';
import { apiDocument, apiDocumentHtml, registerApiDocument } from './lib/api-docs.ts';
import { restValidatorCompiler } from './lib/rest-schema.ts';
import { enforceRouteAccess } from './lib/rest-auth.ts';
import { refuseNulCharacters } from './lib/validation.ts';
import { resolveSessionUser } from './modules/users/session.service.ts';
import { filesRest } from './modules/files/files.rest.ts';
import { authRest } from './modules/auth/auth.rest.ts';
import { browserSessionRoutes } from './modules/auth/browser-session.routes.ts';
import { siteRest } from './modules/site/site.rest.ts';
import { usersRest } from './modules/users/users.rest.ts';
import { profilesRest } from './modules/profiles/profiles.rest.ts';
import { coursesRest } from './modules/courses/courses.rest.ts';
import { enrolmentsRest } from './modules/enrolments/enrolments.rest.ts';
import { contactRest } from './modules/contact/contact.rest.ts';
import { trainingRest } from './modules/training/training.rest.ts';
import { testsRest } from './modules/tests/tests.rest.ts';
import { certificatesRest } from './modules/certificates/certificates.rest.ts';
import { evidenceRest } from './modules/evidence/evidence.rest.ts';
import { auditRest } from './modules/audit/audit.rest.ts';
import { certificateExportsRest } from './modules/certificates/certificate-exports.rest.ts';
import { personalDataRest } from './modules/personal-data/personal-data.rest.ts';
import { SECURITY_HEADERS } from './lib/security-headers.ts';

/**
 * The documented REST paths (spec section 7) under /api, and the browser client's session calls
 * (/api/session). Each feature's adapter is registered here; all of them call the same service
 * functions as the tRPC routers.
 */
export const restApi: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  // Each route declares its input once, in its `schema` (zod, decision 068): that checks the
  // request before the handler runs, types the handler and writes the API document. Answers are
  // written as the handlers return them: the document shows them, nothing re-encodes them.
  api.setValidatorCompiler(restValidatorCompiler);
  api.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await registerApiDocument(api, { title: `${deps.site.name} API`, version: '1' });

  // A call with no documented body may still say `Content-Type: application/json` (or anything
  // else) and send no bytes: that is an empty body, as `{}` would be, not a malformed one.
  const parseJson = api.getDefaultJsonParser('error', 'error');
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
  api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.common.unsupportedMediaType), undefined);
  });

  // Text PostgreSQL cannot store (NUL) is refused before any rule sees the request; multipart
  // fields are checked as readMultipart reads them.
  api.addHook('preValidation', async (request) => {
    for (const input of [request.params, request.query, request.body]) refuseNulCharacters(input);
  });

  // A route's declared access (`config: { access }`) is what enforces it: 'signed-in' and 'admin'
  // routes refuse other callers here, after the check above and before the route's schema checks
  // the input, and hand their handler `request.caller` (decision 045).
  enforceRouteAccess(api, (authorization) => resolveSessionUser(deps, authorization));

  // Limits are set per request by readMultipart; these only bound what nobody asked for.
  await api.register(multipart, { limits: { fileSize: 0, files: 0, fields: 100 } });

  await api.register(siteRest, { deps });
  await api.register(filesRest, { deps });
  await api.register(authRest, { deps });
  // Not in the spec: the browser client's own session calls, at BROWSER_SESSION_PATH.
  await api.register(browserSessionRoutes, { prefix: '/session', deps });
  await api.register(usersRest, { deps });
  await api.register(profilesRest, { deps });
  await api.register(coursesRest, { deps });
  await api.register(enrolmentsRest, { deps });
  await api.register(contactRest, { deps });
  await api.register(trainingRest, { deps });
  await api.register(testsRest, { deps });
  await api.register(certificatesRest, { deps });
  await api.register(evidenceRest, { deps });
  await api.register(auditRest, { deps });
  await api.register(certificateExportsRest, { deps });
  await api.register(personalDataRest, { deps });

  // Written once, after every route above exists.
  let page: string | undefined;
  api.get('/docs/openapi.json', { config: { access: 'public' }, schema: { summary: 'This document (OpenAPI 3.1).', tags: ['Documentation'] } }, async () => apiDocument(api));
  api.get('/docs', { config: { access: 'public' }, schema: { summary: 'This document as a page.', tags: ['Documentation'] } }, async (_request, reply) =>
    reply.headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send((page ??= apiDocumentHtml(apiDocument(api)))),
  );

  api.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: MESSAGES.common.routeNotFound }));
};

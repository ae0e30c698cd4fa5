import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { STAFF_PERMISSIONS } from '../../shared/staff-roles.ts';
import { escapeMarkup } from './markup.ts';
import type { TRouteAccess } from './rest-auth.ts';
import { answer, DONE } from './rest-schema.ts';

/*
 * The API document (OpenAPI 3.1) is written by @fastify/swagger from each route's own options
 * (decision 068): its `schema` (summary, tags, params, querystring, body, answers) through the zod
 * type provider, and its `config` (who may call it). What follows only adds what every route of
 * an access answers alike.
 */

/** Answers every route of an access may give, beyond those it declares. */
const ACCESS_ANSWERS: Record<TRouteAccess, Record<number, string>> = {
  public: {},
  'signed-in': { 401: 'No valid access token.' },
  admin: { 401: 'No valid access token.', 403: 'Not a member of staff whose role allows it, or a staff session without its second factor.' },
  'signed link': { 404: 'The link is not valid (missing, expired or altered), or the file is gone.' },
};

const INPUT_REFUSED = 'The input is not valid: the message says why, errors names the fields.';

type TSchema = Record<string, unknown> & { response?: Record<string, unknown> };

/** A route's schema with what its access and its input add to the document. */
const transform: typeof jsonSchemaTransform = (document) => {
  const { access, permission } = document.route.config ?? {};
  const schema = (document.schema ?? {}) as TSchema;
  const declared = schema.response ?? {};
  const takesInput = Boolean(schema.body || schema.querystring || schema.params || /\/:/.test(document.url));
  const answers: Record<string, unknown> = {
    ...(Object.keys(declared).some((status) => status.startsWith('2')) ? {} : { 200: DONE }),
    ...Object.fromEntries(
      Object.entries({ ...(takesInput ? { 400: INPUT_REFUSED } : {}), ...(access ? ACCESS_ANSWERS[access] : {}) }).map(([status, description]) => [status, answer(description)]),
    ),
    ...declared,
  };
  return jsonSchemaTransform({
    ...document,
    schema: {
      ...schema,
      response: answers,
      ...(permission ? { description: `Staff: ${STAFF_PERMISSIONS[permission].join(', ')}.` } : {}),
      'x-access': permission ? `${access}: ${permission}` : access,
      ...(access === 'signed-in' || access === 'admin' ? { security: [{ bearer: [] }] } : {}),
    } as typeof document.schema,
  });
};

type TOperation = {
  summary?: string;
  'x-access'?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: TJson }> };
  responses: Record<string, { description: string }>;
};
type TJson = Record<string, unknown>;
type TDocument = { info: { title: string }; paths: Record<string, Record<string, TOperation>> };

/** Writes the document of every route registered after it in this scope (under /api). */
export async function registerApiDocument(scope: FastifyInstance, info: { title: string; version: string }): Promise<void> {
  await scope.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      servers: [{ url: '/api' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform,
    // Every operation lists its parameters, none as an empty list.
    transformObject: (document) => {
      const { openapiObject } = document as { openapiObject: { paths?: Record<string, Record<string, TOperation>> } };
      for (const operations of Object.values(openapiObject.paths ?? {})) {
        for (const operation of Object.values(operations)) operation.parameters ??= [];
      }
      return openapiObject;
    },
  });
}

/** The document, written once all routes exist. */
export const apiDocument = (scope: FastifyInstance) => scope.swagger() as unknown as TDocument;

/** Field names of a schema with their types and whether they are required, for the HTML page. */
function fieldList(schema: TJson | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, TJson>;
  const required = new Set((schema?.required ?? []) as string[]);
  const items = Object.entries(properties).map(([name, field]) => {
    const type = field.format === 'binary' ? 'file' : String(field.type ?? (field.enum ? 'one of' : 'any'));
    const choices = Array.isArray(field.enum) ? `: ${(field.enum as unknown[]).map(String).join(', ')}` : '';
    return `<li><code>${escapeMarkup(name)}</code> <span class="t">${escapeMarkup(type + choices)}</span>${required.has(name) ? ' <strong>required</strong>' : ''}</li>`;
  });
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

/**
 * A small readable page of the document: paths, methods, who may call, fields and answers. Served
 * from here rather than by a bundled viewer, whose scripts and styles the portal's content policy
 * would have to let in for one page.
 */
export function apiDocumentHtml(document: TDocument): string {
  const sections = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const [type, body] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      const params = (operation.parameters ?? []).map((p) => `<code>${escapeMarkup(p.name)}</code> (${p.in})`).join(', ');
      const answers = Object.entries(operation.responses).map(([status, reply]) => `<li><code>${status}</code> ${escapeMarkup(reply.description)}</li>`).join('');
      return `<section><h2><span class="m">${method.toUpperCase()}</span> <code>${escapeMarkup(path)}</code></h2>
<p>${escapeMarkup(operation.summary ?? '')} <span class="a">${escapeMarkup(operation['x-access'] ?? '')}</span></p>
${params ? `<p>Parameters: ${params}</p>` : ''}${type ? `<h3>Body (${escapeMarkup(type)})</h3>${fieldList(body?.schema)}` : ''}
<h3>Answers</h3><ul>${answers}</ul></section>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeMarkup(document.info.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#0f172a}section{border-top:1px solid #cbd5e1;padding:.5rem 0}h2{font-size:1.1rem;margin:.5rem 0;overflow-wrap:anywhere}h3{font-size:1rem;margin:.5rem 0 0}.m{display:inline-block;min-width:3.5rem;font-weight:700;color:#1e3a8a}.a{background:#e2e8f0;border-radius:.25rem;padding:0 .4rem;font-size:.85rem}.t{color:#475569}code{font-size:.95em}</style></head>
<body><main><h1>${escapeMarkup(document.info.title)}</h1><p>The REST paths, under <code>/api</code>; as JSON: <a href="/api/docs/openapi.json">openapi.json</a>. A bearer token goes in <code>Authorization: Bearer …</code>.</p>
${sections.join('\n')}</main></body></html>`;
}

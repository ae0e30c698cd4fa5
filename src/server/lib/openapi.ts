import { z } from 'zod';
import { escapeMarkup } from './markup.ts';
import { STAFF_PERMISSIONS, type TStaffPermission } from '../../shared/staff-roles.ts';

/**
 * Who may call a route. The REST scope enforces it (lib/rest-auth.ts, decision 045): 'signed-in'
 * and 'admin' refuse other callers before the handler runs; 'public' and 'signed link' let anyone
 * in ('signed link' routes check their link's signature themselves). An 'admin' route names the
 * staff permission it needs (`permission`, decision 067): members of staff whose role lacks it are
 * refused too.
 */
export const ROUTE_ACCESSES = ['public', 'signed-in', 'admin', 'signed link'] as const;
export type TRouteAccess = (typeof ROUTE_ACCESSES)[number];

/**
 * What a REST route declares about itself, from the schemas its adapter parses with. Given as
 * the route's `config.openapi`; its access is enforced, and GET /api/docs/openapi.json is
 * generated from them (decision 027).
 */
export type TRouteDoc<Access extends TRouteAccess = TRouteAccess> = {
  summary: string;
  access: Access;
  /** The staff permission an 'admin' route needs (decision 067). */
  permission?: TStaffPermission;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body: its text fields (a schema) and its files (name → what it is). */
  form?: { fields: z.ZodType; files: Record<string, string> };
  /** The schema's clear names as the wire spells them (decision 019): `{ title: 'tittle' }`. */
  wireNames?: Readonly<Record<string, string>>;
  /** It answers 201 (it made something), not 200. */
  created?: boolean;
  /** The success answer's JSON body, when the document shows it. */
  answer?: z.ZodType;
  /** Answers beyond the usual ones of its access (2xx, 400 on input, 401/403). */
  answers?: Record<number, string>;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: TRouteDoc;
  }
}

/**
 * A route's options carrying its declaration: `api.post('/path', doc({ access: 'admin', ... }), handler)`.
 * The access is kept as its literal, so the handler's `request.caller` is typed by it.
 */
export const doc = <Access extends TRouteAccess>(
  openapi: TRouteDoc<Access> & (Access extends 'admin' ? { permission: TStaffPermission } : { permission?: never }),
) => ({ config: { openapi: openapi as TRouteDoc<Access> } });

/** Who holds a staff permission, as the document says it. */
const staffWho = (permission: TStaffPermission) => `Staff: ${STAFF_PERMISSIONS[permission].join(', ')}.`;

type TJson = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, wireNames?: Readonly<Record<string, string>>): TJson {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as TJson;
  delete json.$schema;
  return wireNames ? renameProperties(json, wireNames) : json;
}

/** Renames the top-level properties (and required names) of an object schema. */
function renameProperties(json: TJson, names: Readonly<Record<string, string>>): TJson {
  const rename = (key: string) => names[key] ?? key;
  const out: TJson = { ...json };
  if (json.properties && typeof json.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(json.properties as TJson).map(([key, value]) => [rename(key), value]));
  }
  if (Array.isArray(json.required)) out.required = (json.required as string[]).map(rename);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(json[key])) out[key] = (json[key] as TJson[]).map((part) => renameProperties(part, names));
  }
  return out;
}

const ACCESS_ANSWERS: Record<TRouteAccess, Record<number, string>> = {
  public: {},
  'signed-in': { 401: 'No valid access token.' },
  admin: { 401: 'No valid access token.', 403: 'Not a member of staff whose role allows it, or a staff session without its second factor.' },
  'signed link': { 404: 'The link is not valid (missing, expired or altered), or the file is gone.' },
};

export type TDocumentedRoute = { method: string; url: string; doc: TRouteDoc };

/** `/test/:courseId` → `/test/{courseId}` and its parameter names. */
function openApiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

function parameters(where: 'path' | 'query', schema: z.ZodType | undefined, names: string[]) {
  const json = schema ? jsonSchema(schema) : undefined;
  const properties = (json?.properties ?? {}) as Record<string, TJson>;
  const required = new Set((json?.required ?? []) as string[]);
  const keys = where === 'path' ? names : Object.keys(properties);
  return keys.map((name) => ({ name, in: where, required: where === 'path' || required.has(name), schema: properties[name] ?? { type: 'string' } }));
}

const ERROR_ANSWER = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'A message per field, under the field names the request used.' } },
};

/** The OpenAPI 3.1 document of the given routes. */
export function buildOpenApi(routes: TDocumentedRoute[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url, doc: routeDoc } of routes) {
    const { path, params } = openApiPath(url);
    const { access } = routeDoc;
    const answers: Record<string, unknown> = {
      [routeDoc.created ? '201' : '200']: {
        description: 'Done.',
        ...(routeDoc.answer ? { content: { 'application/json': { schema: jsonSchema(routeDoc.answer) } } } : {}),
      },
    };
    const statuses: Record<number, string> = {
      ...(routeDoc.body || routeDoc.form || routeDoc.query || params.length > 0
        ? { 400: 'The input is not valid: the message says why, errors names the fields.' }
        : ({} as Record<number, string>)),
      ...ACCESS_ANSWERS[access],
      ...routeDoc.answers,
    };
    for (const [status, description] of Object.entries(statuses)) {
      answers[status] = { description, content: { 'application/json': { schema: ERROR_ANSWER } } };
    }
    const operation: Record<string, unknown> = {
      summary: routeDoc.summary,
      ...(routeDoc.permission ? { description: staffWho(routeDoc.permission) } : {}),
      tags: [routeDoc.tag],
      'x-access': routeDoc.permission ? `${access}: ${routeDoc.permission}` : access,
      ...(access === 'signed-in' || access === 'admin' ? { security: [{ bearer: [] }] } : {}),
      parameters: [...parameters('path', routeDoc.params, params), ...parameters('query', routeDoc.query, [])],
      responses: answers,
    };
    if (routeDoc.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(routeDoc.body, routeDoc.wireNames) } } };
    } else if (routeDoc.form) {
      const fields = jsonSchema(routeDoc.form.fields, routeDoc.wireNames);
      const files = Object.fromEntries(Object.entries(routeDoc.form.files).map(([name, description]) => [name, { type: 'string', format: 'binary', description }]));
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { ...fields, properties: { ...(fields.properties as TJson | undefined), ...files } } } },
      };
    }
    (paths[path] ??= {})[method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/api' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

type TDocument = ReturnType<typeof buildOpenApi>;

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

/** A small readable page of the document: paths, methods, who may call, fields and answers. */
export function openApiHtml(document: TDocument): string {
  const sections = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, raw]) => {
      const operation = raw as { summary: string; 'x-access': string; parameters: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, { schema: TJson }> }; responses: Record<string, { description: string }> };
      const [type, body] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      const params = operation.parameters.map((p) => `<code>${escapeMarkup(p.name)}</code> (${p.in})`).join(', ');
      const answers = Object.entries(operation.responses).map(([status, answer]) => `<li><code>${status}</code> ${escapeMarkup(answer.description)}</li>`).join('');
      return `<section><h2><span class="m">${method.toUpperCase()}</span> <code>${escapeMarkup(path)}</code></h2>
<p>${escapeMarkup(operation.summary)} <span class="a">${escapeMarkup(operation['x-access'])}</span></p>
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

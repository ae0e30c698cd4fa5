import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/*
 * What a REST route declares in its `schema` (decision 068): its params, querystring and JSON body
 * as zod schemas of the wire shape, which check the request before the handler runs, type the
 * handler and write the API document; its answers beyond the usual ones, for the document.
 */

/** Every refusal's body: the first problem, and a message per field under the names the request used. */
export const ZErrorAnswer = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional().describe('A message per field, under the field names the request used.'),
});

/** An answer the document shows: when it comes, and its JSON body. */
export const answer = (description: string, schema: z.ZodType = ZErrorAnswer) => ({ description, content: { 'application/json': { schema } } });

/**
 * The route's answers beyond those of its input and access (2xx, 400, 401/403, which the
 * document adds): status → when it comes. Refusals, with the error body.
 */
export const refusals = (answers: Record<number, string>) =>
  Object.fromEntries(Object.entries(answers).map(([status, description]) => [status, answer(description)]));

/** Schemas that only describe a multipart form for the document: the handler reads the form itself. */
const MULTIPART_FORMS = new WeakSet<object>();

/** The object schema a schema checks first (a pipe's or a preprocess's input side). */
function firstObject(schema: z.ZodType): z.ZodObject {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodPipe) current = current.in as z.ZodType;
  if (!(current instanceof z.ZodObject)) throw new Error('A form is declared with an object schema');
  return current;
}

/**
 * A multipart/form-data body as the document shows it: the text fields of `fields` (the schema
 * the form's fields are read with) and its files (name → what it is). Give it as the route's
 * `body` with `consumes: ['multipart/form-data']`; the request is read by withUpload, not checked
 * here.
 */
export function multipartForm(fields: z.ZodType, files: Record<string, string>): z.ZodObject {
  const fileShape = Object.fromEntries(Object.entries(files).map(([name, description]) => [name, z.string().meta({ format: 'binary', description }).optional()]));
  const form = firstObject(fields).extend(fileShape);
  MULTIPART_FORMS.add(form);
  return form;
}

/** The type provider's check of a route's params, querystring and body; a multipart form's schema is left to the handler. */
export const restValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  if (route.httpPart === 'body' && MULTIPART_FORMS.has(route.schema)) return () => true;
  return validatorCompiler(route);
};

/**
 * An object schema (or a pipe of object schemas, as a form's stages) whose keys are spelled as
 * the wire spells them (`{ title: 'tittle' }`): the same checks, under the request's names, so
 * the document and every refusal name the fields as the client sends them.
 */
export function wireSpelled<T extends z.ZodType>(schema: T, names: Readonly<Record<string, string>>): z.ZodType<unknown, unknown> {
  if (schema instanceof z.ZodPipe) return z.pipe(wireSpelled(schema.in as z.ZodType, names), wireSpelled(schema.out as z.ZodType, names));
  if (!(schema instanceof z.ZodObject)) return schema;
  const shape = Object.fromEntries(Object.entries(schema.shape).map(([key, value]) => [names[key] ?? key, value]));
  return schema.clone({ ...schema._zod.def, shape } as typeof schema._zod.def);
}

/** A success whose body the document does not show. */
export const DONE = answer('Done.', z.unknown());

/** A JSON body the client may leave out: none is `{}`. */
export const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((body) => body ?? {}, schema);

import { uniqueIp } from '../testing/mailbox.ts';
import { describe, expect, it } from '../testing/portal-test.ts';

type TOperation = {
  summary: string;
  parameters: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { type?: string; format?: string }>; required?: string[]; additionalProperties?: boolean } }> };
  responses: Record<string, unknown>;
};
type TDocument = { openapi: string; paths: Record<string, Record<string, TOperation>> };

let document: TDocument;

const operation = (method: string, path: string) => document.paths[path]?.[method];
const jsonBody = (method: string, path: string) => operation(method, path)?.requestBody?.content['application/json']?.schema;

const registration = { tittle: 'Mr', firstName: 'Ravi', lastName: 'Menon', mobile: '9876543210', email: 'ravi.docs@example.com', password: 'anchorage harbour' };

it.beforeAll(async ({ portal }) => {
  const res = await portal.app.inject('/api/docs/openapi.json');
  expect(res.statusCode).toBe(200);
  document = res.json();
});

describe('the OpenAPI document at /api/docs/openapi.json', () => {
  it('lists every REST route with its method, a summary and its answers', ({ portal }) => {
    expect(document.openapi).toBe('3.1.0');
    const apiRoutes = portal.routes.filter((route) => route.split(' ')[1]!.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(40);
    for (const route of apiRoutes) {
      const [method, url] = route.split(' ') as [string, string];
      const path = url.replace(/^\/api/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = operation(method.toLowerCase(), path);
      expect(op, `${route} is documented`).toBeDefined();
      expect(op!.summary, `${route} says what it does`).not.toBe('');
      expect(Object.keys(op!.responses).length, route).toBeGreaterThan(0);
      for (const name of [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1])) {
        expect(op!.parameters.some((parameter) => parameter.name === name && parameter.in === 'path'), `${route}: ${name}`).toBe(true);
      }
    }
  });

  it('documents registration with the wire names the adapter takes, and each required field is one it refuses to go without', async ({ portal }) => {
    const schema = jsonBody('post', '/user/register')!;
    expect(Object.keys(schema.properties!).sort()).toEqual(Object.keys(registration).sort());
    expect(schema.required!.sort()).toEqual(Object.keys(registration).sort());
    expect(schema.additionalProperties).toBe(false);
    for (const field of schema.required!) {
      const { [field]: _left, ...rest } = registration as Record<string, string>;
      const res = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: rest, remoteAddress: uniqueIp() });
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), field).toContain(field);
    }
    const extra = await portal.app.inject({ method: 'POST', url: '/api/user/register', payload: { ...registration, role: 'admin' }, remoteAddress: uniqueIp() });
    expect(extra.statusCode).toBe(400);
  });

  it('documents the test submission as the adapter reads it: testId and answers required, courseId optional', async () => {
    const schema = jsonBody('post', '/submitTest')!;
    expect(schema.required!.sort()).toEqual(['answers', 'testId']);
    expect(Object.keys(schema.properties!)).toContain('courseId');
    expect(operation('post', '/submitTest')!.parameters).toEqual([]);
  });

  it('documents the multipart forms with their files', () => {
    const course = operation('post', '/courses')!.requestBody!.content['multipart/form-data']!.schema;
    expect(course.properties!.courseImg).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(course.properties!)).toEqual(expect.arrayContaining(['title', 'description', 'price', 'subject']));
    const profile = operation('post', '/userProfile')!.requestBody!.content['multipart/form-data']!.schema;
    expect(Object.keys(profile.properties!)).toEqual(expect.arrayContaining(['gradenumber', 'DateofBirth', 'CDCnumber', 'IDType', 'profilePicture', 'IdDocument', 'signature', 'consent']));
    expect(Object.keys(profile.properties!)).not.toContain('gradeNumber');
  });

  it('documents the list queries with their parameters', () => {
    const names = operation('get', '/submitTest')!.parameters.map((parameter) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(['search', 'page', 'pageSize']));
  });
});

describe('the page at /api/docs', () => {
  it('is server-rendered HTML listing each path and method, with nothing from elsewhere', async ({ portal }) => {
    const res = await portal.app.inject('/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const [path, operations] of Object.entries(document.paths)) {
      expect(res.body).toContain(`<code>${path}</code>`);
      for (const method of Object.keys(operations)) expect(res.body).toContain(method.toUpperCase());
    }
    expect(res.body).not.toMatch(/<script|src="https?:|href="https?:/);
  });
});

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

// The baseline: a bare Fastify answering a small JSON document, nothing else.
const app = Fastify();
const body = { data: { name: 'Maritime Training Academy', city: 'Mumbai' } };
app.get('/api/site-config', async () => body);

// And, when given one (CATALOGUE_REPLAY: a JSON file of { headers, body } as the portal sent them),
// the portal's catalogue answer, byte for byte and header for header, from a constant: what bare
// Fastify does with the same answer, to tell the answer's own cost from the portal's stack.
if (process.env.CATALOGUE_REPLAY) {
  const replay = JSON.parse(readFileSync(process.env.CATALOGUE_REPLAY, 'utf8'));
  const bytes = Buffer.from(replay.body, 'base64');
  app.get('/api/courses/active', async (_request, reply) => reply.headers(replay.headers).header('x-request-id', randomUUID()).send(bytes));
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

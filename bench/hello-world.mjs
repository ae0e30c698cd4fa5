import Fastify from 'fastify';

// The baseline: a bare Fastify answering a small JSON document, nothing else.
const app = Fastify();
const body = { data: { name: 'Maritime Training Academy', city: 'Mumbai' } };
app.get('/api/site-config', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

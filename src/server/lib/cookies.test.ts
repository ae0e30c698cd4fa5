import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { strictCookie } from './cookies.ts';

/** The Set-Cookie header @fastify/cookie writes for a cookie, and what the server reads back from a Cookie header. */
async function roundTrip(cookie: ReturnType<typeof strictCookie>, sent?: string) {
  const app = Fastify();
  await app.register(fastifyCookie);
  let read: unknown;
  app.get('/', async (request, reply) => {
    read = request.cookies;
    return reply.setCookie(cookie.name, cookie.value, cookie.options).send('ok');
  });
  const res = await app.inject({ url: '/', headers: sent ? { cookie: sent } : {} });
  await app.close();
  return { setCookie: String(res.headers['set-cookie']), read };
}

const parts = (header: string) => header.split(';').map((part) => part.trim()).sort();

describe('strictCookie', () => {
  it('is HttpOnly, SameSite=Strict, on its path, for whole seconds, Secure in production only', async () => {
    const production = await roundTrip(strictCookie('portal_refresh', 'abc-DEF_123', '/api/session', 90.7, { NODE_ENV: 'production' }));
    expect(parts(production.setCookie)).toEqual(['HttpOnly', 'Max-Age=90', 'Path=/api/session', 'SameSite=Strict', 'Secure', 'portal_refresh=abc-DEF_123']);
    const development = await roundTrip(strictCookie('portal_refresh', 'abc', '/api/session', 90, { NODE_ENV: 'development' }));
    expect(parts(development.setCookie)).toEqual(['HttpOnly', 'Max-Age=90', 'Path=/api/session', 'SameSite=Strict', 'portal_refresh=abc']);
  });

  it('deletes with a Max-Age of 0, never a negative one', async () => {
    const cleared = await roundTrip(strictCookie('portal_refresh', '', '/api/session', -5, { NODE_ENV: 'test' }));
    expect(parts(cleared.setCookie)).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/api/session', 'SameSite=Strict', 'portal_refresh=']);
  });

  it('cannot smuggle another attribute in a value', async () => {
    const { setCookie } = await roundTrip(strictCookie('portal_refresh', 'a; Domain=evil.example', '/', 1, { NODE_ENV: 'test' }));
    expect(setCookie).not.toMatch(/; Domain=/);
  });

  it('reads the first of two cookies with the same name (the most specific path’s)', async () => {
    const { read } = await roundTrip(strictCookie('x', 'y', '/', 1, { NODE_ENV: 'test' }), 'theme=dark; portal_refresh=newer;portal_refresh=older; broken');
    expect(read).toMatchObject({ theme: 'dark', portal_refresh: 'newer' });
  });
});

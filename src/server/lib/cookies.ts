import type { CookieSerializeOptions } from '@fastify/cookie';

/** A cookie to set, as @fastify/cookie's `reply.setCookie` takes it. */
export type TCookie = { name: string; value: string; options: CookieSerializeOptions };

/**
 * The cookies this server writes: HttpOnly, SameSite=Strict, on one path, Secure in production
 * (development and tests run on plain http://localhost). A Max-Age of 0 deletes the cookie.
 */
export function strictCookie(name: string, value: string, path: string, maxAgeSeconds: number, env: { NODE_ENV: string }): TCookie {
  return { name, value, options: { path, maxAge: Math.max(0, Math.floor(maxAgeSeconds)), httpOnly: true, secure: env.NODE_ENV === 'production', sameSite: 'strict' } };
}

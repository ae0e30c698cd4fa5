/** What a Set-Cookie header says about its cookie besides the value. */
export type TCookieAttributes = {
  path: string;
  /** Seconds the browser keeps the cookie; 0 deletes it. */
  maxAgeSeconds: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax';
};

const COOKIE_NAME = /^[A-Za-z0-9_-]+$/;
/** Cookie values the server writes: base64url and the like, never quoted or escaped. */
const COOKIE_VALUE = /^[A-Za-z0-9_-]*$/;

/** Secure (HTTPS only) in production; development and tests run on plain http://localhost. */
export function secureCookies(env: { NODE_ENV: string }): boolean {
  return env.NODE_ENV === 'production';
}

/** One Set-Cookie header value. Only the plain names and values this server writes are accepted. */
export function serializeCookie(name: string, value: string, attributes: TCookieAttributes): string {
  if (!COOKIE_NAME.test(name) || !COOKIE_VALUE.test(value)) throw new Error(`cookie ${name} has characters it cannot carry`);
  const parts = [
    `${name}=${value}`,
    `Path=${attributes.path}`,
    `Max-Age=${Math.max(0, Math.floor(attributes.maxAgeSeconds))}`,
    `SameSite=${attributes.sameSite}`,
  ];
  if (attributes.httpOnly) parts.push('HttpOnly');
  if (attributes.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * The value of one cookie in a Cookie request header, or undefined. When the browser sends the
 * name twice (cookies of the same name on different paths), the first, the most specific path's,
 * is the one read.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1) continue;
    if (pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

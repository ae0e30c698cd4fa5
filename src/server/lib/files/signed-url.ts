import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TFileArea } from './storage.ts';

/**
 * `<img>` and `<video>` cannot send a bearer header, so private files are reached through
 * short-lived URLs whose signature covers the area, the name and the expiry.
 */
export const FILE_URL_TTL_SECONDS = 15 * 60;

function signature(secret: string, area: TFileArea, name: string, expires: number): string {
  return createHmac('sha256', secret).update(`file:${area}/${name}:${expires}`).digest('base64url');
}

export function signFileUrl(
  secret: string,
  area: TFileArea,
  name: string,
  now: Date = new Date(),
  ttlSeconds = FILE_URL_TTL_SECONDS,
): string {
  // Expiry is rounded up to the minute so a page's URLs stay stable (and cacheable) for a while.
  const expires = Math.ceil((now.getTime() / 1000 + ttlSeconds) / 60) * 60;
  return `/api/files/${area}/${name}?expires=${expires}&signature=${signature(secret, area, name, expires)}`;
}

export function verifyFileSignature(
  secret: string,
  area: TFileArea,
  name: string,
  expires: string | undefined,
  given: string | undefined,
  now: Date = new Date(),
): 'valid' | 'expired' | 'invalid' {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signature(secret, area, name, Number(expires)));
  const provided = Buffer.from(given);
  if (expected.length !== provided.length || !timingSafeEqual(expected, provided)) return 'invalid';
  return Number(expires) * 1000 < now.getTime() ? 'expired' : 'valid';
}

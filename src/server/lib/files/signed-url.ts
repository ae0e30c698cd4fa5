import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TFileArea } from './storage.ts';

/**
 * `<img>` and `<video>` cannot send a bearer header, so private files are reached through
 * short-lived URLs whose signature covers the area, the name and the expiry.
 */
export const FILE_URL_TTL_SECONDS = 15 * 60;

function signature(secret: string, area: TFileArea, name: string, expires: number): string {
  return signSubject(secret, `file:${area}/${name}`, expires);
}

/** An HMAC over what a link grants (`subject`) and until when; links of other kinds sign other subjects. */
export function signSubject(secret: string, subject: string, expires: number): string {
  return createHmac('sha256', secret).update(`${subject}:${expires}`).digest('base64url');
}

/** The expiry (Unix seconds) of a link made now, rounded up to the minute so URLs stay stable a while. */
export function linkExpiry(now: Date, ttlSeconds: number): number {
  return Math.ceil((now.getTime() / 1000 + ttlSeconds) / 60) * 60;
}

/** Checks a link's signature and expiry; a tampered link is 'invalid', an old one 'expired'. */
export function verifySubject(
  secret: string,
  subject: string,
  expires: string | undefined,
  given: string | undefined,
  now: Date = new Date(),
): 'valid' | 'expired' | 'invalid' {
  if (!expires || !given || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signSubject(secret, subject, Number(expires)));
  const provided = Buffer.from(given);
  if (expected.length !== provided.length || !timingSafeEqual(expected, provided)) return 'invalid';
  return Number(expires) * 1000 < now.getTime() ? 'expired' : 'valid';
}

export function signFileUrl(
  secret: string,
  area: TFileArea,
  name: string,
  now: Date = new Date(),
  ttlSeconds = FILE_URL_TTL_SECONDS,
): string {
  const expires = linkExpiry(now, ttlSeconds);
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
  return verifySubject(secret, `file:${area}/${name}`, expires, given, now);
}

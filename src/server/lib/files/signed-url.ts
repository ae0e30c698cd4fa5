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

/** An HMAC of `text` with the secret, URL-safe. */
export function signText(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

/** Whether `given` is the signature of `text`, compared in constant time. */
export function isSignatureOf(secret: string, text: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(signText(secret, text));
  const provided = Buffer.from(given);
  return expected.length === provided.length && timingSafeEqual(expected, provided);
}

/** An HMAC over what a link grants (`subject`) and until when; links of other kinds sign other subjects. */
export function signSubject(secret: string, subject: string, expires: number): string {
  return signText(secret, `${subject}:${expires}`);
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
  if (!expires || !/^\d{1,12}$/.test(expires) || !isSignatureOf(secret, `${subject}:${Number(expires)}`, given)) return 'invalid';
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

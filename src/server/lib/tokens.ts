import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ROLES, SECOND_FACTOR_STATES } from '../../shared/constants.ts';

/**
 * Access tokens are compact JWTs signed with HS256. The algorithm is pinned: a token whose header
 * names any other algorithm (`none` included) is refused before its signature is looked at.
 */
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
/** A second-factor challenge's header: its own type, so neither token passes for the other. */
const CHALLENGE_HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'MFA' }));

export const ZAccessClaims = z.object({
  sub: z.string().uuid(),
  role: z.enum(ROLES),
  /** The session (refresh-token family) the token belongs to: it stops working when that ends. */
  sid: z.uuid().optional(),
  /** How the sign-in met the second factor (decision 067); staff calls need it. */
  mf: z.enum(SECOND_FACTOR_STATES).optional(),
  typ: z.literal('access'),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type TAccessClaims = z.infer<typeof ZAccessClaims>;

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

function sign(data: string, secret: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

export function signAccessToken(
  claims: Pick<TAccessClaims, 'sub' | 'role' | 'sid' | 'mf'>,
  secret: string,
  ttlSeconds: number,
  now: Date = new Date(),
): string {
  const iat = Math.floor(now.getTime() / 1000);
  const body = base64url(JSON.stringify({ ...claims, typ: 'access', iat, exp: iat + ttlSeconds }));
  return `${HEADER}.${body}.${sign(`${HEADER}.${body}`, secret)}`;
}

/**
 * The claims of a token signed here with the given header, checked against its schema and unexpired,
 * or null for anything else: a header other than the one expected (another algorithm, `none`,
 * another kind of token) is refused before the signature is looked at.
 */
function verifySigned<C extends { exp: number }>(token: string, expectedHeader: string, schema: z.ZodType<C>, secret: string, now: Date): C | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, body, signature] = parts as [string, string, string];
  if (header !== expectedHeader) return null;
  const expected = Buffer.from(sign(`${header}.${body}`, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const claims = schema.safeParse(payload);
  if (!claims.success) return null;
  if (claims.data.exp <= Math.floor(now.getTime() / 1000)) return null;
  return claims.data;
}

/** Returns the claims of a valid, unexpired access token, or null for anything else. */
export function verifyAccessToken(token: string, secret: string, now: Date = new Date()): TAccessClaims | null {
  return verifySigned(token, HEADER, ZAccessClaims, secret, now);
}

/** A random opaque token (refresh tokens, set-up links) and the hash stored in its place. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The second step of a sign-in: a short-lived token, signed like an access token but of its own
 * type (neither is taken for the other), bound to the user, naming what it is for and carrying
 * the WebAuthn challenge a passkey must sign.
 */
export const ZChallengeClaims = z.object({
  sub: z.uuid(),
  typ: z.literal('second-factor'),
  /** 'sign-in': give a factor; 'enrol': a member of staff who has none sets one up first. */
  purpose: z.enum(['sign-in', 'enrol']),
  /** Used once: the id the store remembers when the sign-in finishes. */
  jti: z.string().min(16),
  /** The WebAuthn challenge (base64url). */
  wc: z.string().min(16),
  /** The administrators' login (/backend): only staff may finish it. */
  ao: z.boolean().optional(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type TChallengeClaims = z.infer<typeof ZChallengeClaims>;

export function signChallengeToken(
  claims: Pick<TChallengeClaims, 'sub' | 'purpose' | 'ao'>,
  secret: string,
  ttlSeconds: number,
  now: Date = new Date(),
): { token: string; claims: TChallengeClaims } {
  const iat = Math.floor(now.getTime() / 1000);
  const full: TChallengeClaims = { ...claims, typ: 'second-factor', jti: randomToken(16), wc: randomToken(32), iat, exp: iat + ttlSeconds };
  const body = base64url(JSON.stringify(full));
  return { token: `${CHALLENGE_HEADER}.${body}.${sign(`${CHALLENGE_HEADER}.${body}`, secret)}`, claims: full };
}

/** The claims of a valid, unexpired challenge token, or null. */
export function verifyChallengeToken(token: string, secret: string, now: Date = new Date()): TChallengeClaims | null {
  return verifySigned(token, CHALLENGE_HEADER, ZChallengeClaims, secret, now);
}

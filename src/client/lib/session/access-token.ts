/** The claims the client reads from an access token. The server checks the signature; we only look. */
export type TAccessClaims = { sub?: string; role?: string; exp?: number; sid?: string };

/** The token's payload, or null when it is not a readable JWT. */
export function readClaims(token: string): TAccessClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const claims: unknown = JSON.parse(json);
    return claims && typeof claims === 'object' ? (claims as TAccessClaims) : null;
  } catch {
    return null;
  }
}

/** Milliseconds until the token expires (negative once it has); -Infinity when unreadable. */
export function msUntilExpiry(token: string, now = Date.now()): number {
  const exp = readClaims(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 - now : Number.NEGATIVE_INFINITY;
}

/** Expired, unreadable, or expiring within `marginMs`. */
export function isExpired(token: string, marginMs = 0): boolean {
  return msUntilExpiry(token) <= marginMs;
}

import type { IncomingHttpHeaders } from 'node:http';
import { BROWSER_SESSION_PATH, SESSION_CALL_HEADER } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TEnv } from '../../env.ts';
import { strictCookie, type TCookie } from '../../lib/cookies.ts';
import { AppError } from '../../lib/errors.ts';
import type { TIssuedSession } from './auth.service.ts';

/*
 * How the browser client holds its session (decision 015): the access token in the page, the
 * refresh token in an HttpOnly cookie that script cannot read and the browser sends only to the
 * session routes (BROWSER_SESSION_PATH), never to another site's requests.
 */

export const REFRESH_COOKIE_NAME = 'portal_refresh';

/** The cookie that keeps a session's refresh token until the session's own end. */
export function refreshCookie(session: Pick<TIssuedSession, 'refreshToken' | 'expiresAt'>, env: Pick<TEnv, 'NODE_ENV'>, now = Date.now()): TCookie {
  return strictCookie(REFRESH_COOKIE_NAME, session.refreshToken, BROWSER_SESSION_PATH, (session.expiresAt.getTime() - now) / 1000, env);
}

/** The cookie that makes the browser forget the refresh token. */
export function clearedRefreshCookie(env: Pick<TEnv, 'NODE_ENV'>): TCookie {
  return strictCookie(REFRESH_COOKIE_NAME, '', BROWSER_SESSION_PATH, 0, env);
}

/** The refresh token the browser sent, if any (the request's cookies, read by @fastify/cookie). */
export function readRefreshCookie(cookies: Partial<Record<string, string>>): string | undefined {
  return cookies[REFRESH_COOKIE_NAME] || undefined;
}

/**
 * Refuses a session call without the portal's own header. SameSite=Strict already keeps the
 * cookie off other sites' requests; the header also stops a page on a sibling host of the same
 * site, which a plain form post could otherwise reach with the cookie.
 */
export function refuseForeignSessionCall(headers: IncomingHttpHeaders): void {
  if (headers[SESSION_CALL_HEADER.name.toLowerCase()] !== SESSION_CALL_HEADER.value) {
    throw new AppError('FORBIDDEN', MESSAGES.auth.sessionCallForeign);
  }
}

/**
 * Hands a new session to the browser: the refresh token into its cookie (through `setCookie`),
 * the rest as the answer.
 */
export function keepRefreshTokenInCookie<T extends TIssuedSession>(
  session: T,
  setCookie: (cookie: TCookie) => void,
  env: Pick<TEnv, 'NODE_ENV'>,
): Omit<T, 'refreshToken' | 'expiresAt'> {
  const { refreshToken, expiresAt, ...answer } = session;
  setCookie(refreshCookie({ refreshToken, expiresAt }, env));
  return answer;
}

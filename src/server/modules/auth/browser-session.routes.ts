import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ZBrowserLogoutRequest, type TBrowserRefreshResult } from '../../../shared/schemas/auth.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import type { AppDeps } from '../../deps.ts';
import { doc } from '../../lib/openapi.ts';
import { isAppError } from '../../lib/errors.ts';
import { parseInput } from '../../lib/validation.ts';
import type { TCookie } from '../../lib/cookies.ts';
import { logout, refreshSession } from './auth.service.ts';
import {
  clearedRefreshCookie,
  readRefreshCookie,
  refreshCookie,
  refuseForeignSessionCall,
} from './browser-session.ts';

/**
 * The browser client's session calls, under BROWSER_SESSION_PATH: the refresh token comes in its
 * HttpOnly cookie, never in a body, and each answer sets or clears that cookie. Clients written
 * to the spec use /user/refresh-token and /user/logout instead (auth.rest.ts).
 */
const setCookie = (reply: FastifyReply, cookie: TCookie) => reply.setCookie(cookie.name, cookie.value, cookie.options);

export const browserSessionRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (api, { deps }) => {
  api.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    refuseForeignSessionCall(request.headers);
  });

  /** Rotates the cookie's refresh token (reuse detection as everywhere) and answers a new access token. */
  api.post('/refresh', doc({ summary: 'The browser’s session: a new access token for the refresh cookie (send X-Requested-With: portal).', access: 'public', tag: 'Browser session', answers: { 401: 'No valid refresh cookie.', 403: 'Not called by the portal’s pages.' } }), async (request, reply): Promise<TBrowserRefreshResult> => {
    try {
      const session = await refreshSession(deps, readRefreshCookie(request.cookies));
      setCookie(reply, refreshCookie(session, deps.env));
      return { accessToken: session.accessToken };
    } catch (error) {
      // Refused (expired, revoked, reused): the browser forgets the cookie. A failure of ours keeps it.
      if (isAppError(error)) setCookie(reply, clearedRefreshCookie(deps.env));
      throw error;
    }
  });

  /**
   * Ends the cookie's session at the server and clears the cookie; with a `sessionId` (a logout
   * made offline, sent later), only when the cookie is that session's.
   */
  api.post('/logout', doc({ summary: 'The browser’s session: end it and clear the refresh cookie (send X-Requested-With: portal). With `sessionId`, only that session: a later one’s cookie is left as it is.', access: 'public', tag: 'Browser session', body: ZBrowserLogoutRequest, answers: { 400: 'The session named is not a session id.', 403: 'Not called by the portal’s pages.' } }), async (request, reply): Promise<TMessageResult> => {
    const { sessionId } = parseInput(ZBrowserLogoutRequest, request.body ?? {});
    const { message, tokenEnded } = await logout(deps, readRefreshCookie(request.cookies), sessionId);
    if (tokenEnded) setCookie(reply, clearedRefreshCookie(deps.env));
    return { message };
  });
};

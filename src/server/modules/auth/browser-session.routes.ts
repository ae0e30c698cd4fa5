import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZBrowserLogoutRequest, type TBrowserRefreshResult } from '../../../shared/schemas/auth.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import type { AppDeps } from '../../deps.ts';
import { orEmpty, refusals } from '../../lib/rest-schema.ts';
import { isAppError } from '../../lib/errors.ts';
import { logout, refreshSession } from './auth.service.ts';
import {
  clearedRefreshCookie,
  readRefreshCookie,
  refreshCookie,
  refuseForeignSessionCall,
} from './browser-session.ts';
import type { TCookie } from '../../lib/cookies.ts';

const setCookie = (reply: FastifyReply, cookie: TCookie) => reply.setCookie(cookie.name, cookie.value, cookie.options);

/**
 * The browser client's session calls, under BROWSER_SESSION_PATH: the refresh token comes in its
 * HttpOnly cookie, never in a body, and each answer sets or clears that cookie. Clients written
 * to the spec use /user/refresh-token and /user/logout instead (auth.rest.ts).
 */
export const browserSessionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    refuseForeignSessionCall(request.headers);
  });

  /** Rotates the cookie's refresh token (reuse detection as everywhere) and answers a new access token. */
  api.post('/refresh', { config: { access: 'public' }, schema: { summary: 'The browser’s session: a new access token for the refresh cookie (send X-Requested-With: portal).', tags: ['Browser session'], response: { ...refusals({ 401: 'No valid refresh cookie.', 403: 'Not called by the portal’s pages.' }) } } }, async (request, reply): Promise<TBrowserRefreshResult> => {
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
  api.post('/logout', { config: { access: 'public' }, schema: { summary: 'The browser’s session: end it and clear the refresh cookie (send X-Requested-With: portal). With `sessionId`, only that session: a later one’s cookie is left as it is.', tags: ['Browser session'], body: orEmpty(ZBrowserLogoutRequest), response: { ...refusals({ 400: 'The session named is not a session id.', 403: 'Not called by the portal’s pages.' }) } } }, async (request, reply): Promise<TMessageResult> => {
    const { sessionId } = request.body;
    const { message, tokenEnded } = await logout(deps, readRefreshCookie(request.cookies), sessionId);
    if (tokenEnded) setCookie(reply, clearedRefreshCookie(deps.env));
    return { message };
  });
};

import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '../../../server/router.ts';
import { httpStatusOf } from '@/lib/api-errors.ts';
import { isExpired } from '@/lib/session/access-token.ts';
import { hasPendingLogout, readAccessToken } from '@/lib/session/session.ts';
import { sendPendingLogout } from '@/lib/session/session-calls.ts';
import { canRenewSession } from '@/lib/session/session-store.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session/session-refresh.ts';

/** Calls whose 401 means "wrong credentials": never refreshed for. */
const SESSION_PATHS = new Set(['auth.login', 'auth.adminLogin']);

/** The Authorization header for the stored access token (read per request, so rotations apply). */
export function authorizationHeader(): Record<string, string> {
  const token = readAccessToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * Before any call, sends a logout that is still waiting (made with no link): a login behind it
 * would replace the cookie of the session that logout ends, so a login waits for it and fails, as
 * with no link, while it cannot be sent. Then, before a call, renews an already expired access
 * token (when a refresh cookie is held); after a 401 on a call that carried a token, refreshes once
 * (shared with every other call failing at the same moment) and retries once. A refused refresh
 * has already cleared the session by then, and the call fails with its 401.
 */
export const sessionLink: TRPCLink<AppRouter> = () => {
  return ({ op, next }) =>
    observable((observer) => {
      let unsubscribe: (() => void) | undefined;
      let stopped = false;

      function send(retried: boolean) {
        if (stopped) return;
        const sentToken = readAccessToken();
        const subscription = next(op).subscribe({
          next: (value) => observer.next(value),
          complete: () => observer.complete(),
          error: (error) => {
            if (retried || !sentToken || SESSION_PATHS.has(op.path) || httpStatusOf(error) !== 401) {
              observer.error(error);
              return;
            }
            // Another call (or tab) may already have rotated the token: then just try again.
            const stored = readAccessToken();
            const renewed =
              stored && stored !== sentToken && !isExpired(stored, EXPIRY_MARGIN_MS)
                ? Promise.resolve(stored)
                : refreshAccessToken();
            void renewed.then((token) => (token ? send(true) : observer.error(error)));
          },
        });
        unsubscribe = () => subscription.unsubscribe();
      }

      function start() {
        const token = readAccessToken();
        if (token && !SESSION_PATHS.has(op.path) && isExpired(token, EXPIRY_MARGIN_MS) && canRenewSession()) {
          void refreshAccessToken().then(() => send(false));
        } else {
          send(false);
        }
      }

      if (hasPendingLogout()) {
        void sendPendingLogout().then((sent) => {
          if (sent || !SESSION_PATHS.has(op.path)) start();
          else observer.error(TRPCClientError.from(new Error('The last logout has not reached the server yet.')));
        });
      } else {
        start();
      }

      return () => {
        stopped = true;
        unsubscribe?.();
      };
    });
};

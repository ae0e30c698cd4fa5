import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isAdminArea, paths } from '@/config/paths.ts';
import { loginReturn } from '@/lib/session/login-return.ts';
import { SESSION_EXPIRED_EVENT, hasPendingLogout, readStoredUserId, useHasSession } from '@/lib/session/session.ts';

/** Sends a logout made with no link (lib/session/session-calls.ts), when there is one. */
function sendWaitingLogout() {
  if (hasPendingLogout()) void import('@/lib/session/session-calls.ts').then(({ resendPendingLogout }) => resendPendingLogout());
}

/**
 * Watches the session for the whole app. A logout still waiting to reach the server is sent when the
 * app opens and when the link returns. While someone is signed in it loads the expiry monitor
 * and registers the service worker (each its own chunk, never part of a visitor's first page); when a session ends on its own it sends
 * the user to log in again: administrators to the administrator login, everyone else to /login,
 * remembering where they were for them alone.
 */
export function SessionWatch() {
  const navigate = useNavigate();
  const signedIn = useHasSession();

  useEffect(() => {
    function onExpired() {
      const { pathname, search } = window.location;
      // Still stored: the event comes before the session is cleared. Only this user comes back here.
      navigate(isAdminArea(pathname) ? paths.adminLogin : paths.login, { replace: true, state: loginReturn(pathname + search, readStoredUserId()) });
    }
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
  }, [navigate]);

  // A logout made at sea goes as soon as the app opens, and again whenever the link returns.
  useEffect(() => {
    sendWaitingLogout();
    window.addEventListener('online', sendWaitingLogout);
    return () => window.removeEventListener('online', sendWaitingLogout);
  }, []);

  // The service worker (the installable, offline app) is registered once someone is signed in:
  // a visitor's pages never fetch it nor its code.
  useEffect(() => {
    if (!signedIn) return;
    void import('@/lib/pwa/register-service-worker.ts').then(({ registerServiceWorker }) => registerServiceWorker());
  }, [signedIn]);

  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('@/lib/session/session-monitor.ts').then(({ startSessionMonitor }) => {
      if (!cancelled) stop = startSessionMonitor();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn]);

  return null;
}

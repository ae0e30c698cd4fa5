import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isAdminArea, paths } from '@/config/paths.ts';
import { SESSION_EXPIRED_EVENT, useHasSession } from '@/lib/session.ts';

/**
 * Watches the session for the whole app. While someone is signed in it loads the expiry monitor
 * (its own chunk, never part of a visitor's first page); when a session ends on its own it sends
 * the user to log in again: administrators to the administrator login, everyone else to /login,
 * remembering where they were.
 */
export function SessionWatch() {
  const navigate = useNavigate();
  const signedIn = useHasSession();

  useEffect(() => {
    function onExpired() {
      const { pathname, search } = window.location;
      navigate(isAdminArea(pathname) ? paths.adminLogin : paths.login, { replace: true, state: { from: pathname + search } });
    }
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
  }, [navigate]);

  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('@/lib/session-monitor.ts').then(({ startSessionMonitor }) => {
      if (!cancelled) stop = startSessionMonitor();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn]);

  return null;
}

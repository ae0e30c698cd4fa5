import { type ReactNode, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { Spinner } from '@/components/ui/spinner.tsx';
import { isExpired, readClaims } from '@/lib/session/access-token.ts';
import { loginReturn, useLoginReturn, type TLoginReturn } from '@/lib/session/login-return.ts';
import { EXPIRY_MARGIN_MS, refreshAccessToken } from '@/lib/session/session-refresh.ts';
import { canRenewSession } from '@/lib/session/session-store.ts';
import { clearStoredSession, useAccessToken } from '@/lib/session/session.ts';

/** Clears the stored session and opens the administrator login, with where to come back to. */
function LeaveAdminArea({ back }: { back: TLoginReturn | undefined }) {
  const navigate = useNavigate();
  const from = back?.from;
  const forUser = back?.forUser;
  useEffect(() => {
    clearStoredSession();
    navigate(paths.adminLogin, { replace: true, state: from === undefined ? undefined : loginReturn(from, forUser) });
  }, [navigate, from, forUser]);
  return null;
}

/**
 * The admin area needs a valid, unexpired access token with the role admin (spec section 6);
 * anything else clears storage and opens /backend. An expired token is first renewed with the
 * refresh cookie, as everywhere else, so an administrator is not logged out every 15 minutes.
 * The server checks the role on every call regardless; this only keeps others off the screens.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const token = useAccessToken();
  const location = useLocation();
  const from = location.pathname + location.search;
  const askedFor = useLoginReturn(token !== null);
  const expired = token !== null && isExpired(token, EXPIRY_MARGIN_MS);
  const [refreshFailed, setRefreshFailed] = useState(false);
  const canRefresh = expired && !refreshFailed && canRenewSession();

  useEffect(() => {
    if (!canRefresh) return;
    let cancelled = false;
    void refreshAccessToken().then((fresh) => {
      if (!cancelled && !fresh) setRefreshFailed(true);
    });
    return () => {
      cancelled = true;
    };
  }, [canRefresh]);

  if (canRefresh) {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner size="lg" label="Checking your session…" />
      </div>
    );
  }
  if (!token) return <LeaveAdminArea back={askedFor} />;
  // A token that will not do: the page is kept for the person it was issued to.
  if (expired || readClaims(token)?.role !== 'admin') return <LeaveAdminArea back={loginReturn(from, readClaims(token)?.sub)} />;
  return children;
}

import { Navigate, Outlet } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useLoginReturn } from '@/lib/session/login-return.ts';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';
import { useHasSession } from '@/lib/session/session.ts';

/** Sends the watching done offline (lib/offline/offline-sync.tsx): its own chunk, fetched once signed in. */
const offlineSync = onDemand(() => import('@/lib/offline/offline-sync.tsx'));

/**
 * Learner pages need only a stored access token (spec section 6); the server checks the rest on
 * every call. Without one the user logs in first and is brought back here afterwards, if they
 * asked for this page (not when their own logout left it, nor a step back into someone's history).
 */
export function RequireSession() {
  const signedIn = useHasSession();
  const loginReturn = useLoginReturn(signedIn);
  const sync = useOnDemand(offlineSync, signedIn, () => undefined);
  if (!signedIn) {
    return <Navigate to={paths.login} replace state={loginReturn} />;
  }
  return (
    <>
      {sync && <sync.OfflineSync />}
      <Outlet />
    </>
  );
}

import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { useHasSession } from '@/lib/session.ts';

/**
 * Learner pages need only a stored access token (spec section 6); the server checks the rest on
 * every call. Without one the user logs in first and is brought back here afterwards.
 */
export function RequireSession() {
  const signedIn = useHasSession();
  const location = useLocation();
  if (!signedIn) {
    return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search + location.hash }} />;
  }
  return <Outlet />;
}

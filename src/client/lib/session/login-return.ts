import { useState } from 'react';
import { useLocation, useNavigationType, type Location, type NavigationType } from 'react-router-dom';

/**
 * What a screen hands the login screen so the user comes back to it afterwards. When a session
 * ended under someone (expired, refused), `forUser` names them: only they are brought back, and
 * whoever signs in next on that browser (a ship's shared computer) goes to their own home.
 */
export type TLoginReturn = { from: string; forUser?: string };

export function loginReturn(from: string, forUser?: string): TLoginReturn {
  return forUser ? { from, forUser } : { from };
}

/**
 * Whether the user asked for the current address themselves (a link, the app, or typing it), not
 * a step back or forward through the browser's history, which may hold the last person's pages.
 */
export function askedForHere(navigationType: NavigationType, location: Pick<Location, 'key'>): boolean {
  if (navigationType !== 'POP') return true;
  // POP past the document's first address: a step through this document's history.
  if (location.key !== 'default') return false;
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return entry?.type !== 'back_forward';
}

/**
 * For a guard that finds nobody signed in: where the login should bring the user back, or nothing.
 * Nothing when the session ended while this screen was open (a logout, here or in another tab:
 * the page was the last person's, not the next one's wish) or when the address came from history.
 */
export function useLoginReturn(signedIn: boolean): TLoginReturn | undefined {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [hadSession, setHadSession] = useState(signedIn);
  if (signedIn && !hadSession) setHadSession(true);
  if (signedIn || hadSession || !askedForHere(navigationType, location)) return undefined;
  return loginReturn(location.pathname + location.search + location.hash);
}

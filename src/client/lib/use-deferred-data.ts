import { useDeferredValue } from 'react';

/**
 * A query's data for a screen that is heavy to draw (decision 034). React draws an update from a
 * query at once, in one task however long; deferred, the first data are drawn by a background
 * render that React splits into slices of a few milliseconds, so a tap or a scroll is answered
 * while the screen fills in. `arriving` is true between the data's coming and that render:
 * the screen keeps its skeleton meanwhile. Later changes (a refetch) show the current data until
 * the new render is ready.
 */
export function useDeferredData<T>(data: T | undefined): { data: T | undefined; arriving: boolean } {
  const deferred = useDeferredValue(data);
  return { data: deferred, arriving: deferred === undefined && data !== undefined };
}

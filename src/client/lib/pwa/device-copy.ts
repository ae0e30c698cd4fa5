import { useEffect } from 'react';

/*
 * Whether a screen shows what the device itself holds (a course downloaded on it) in place of an
 * answer of the server: the offline line (offline-notice.tsx) reads only the query cache, where
 * such a screen has nothing, and would otherwise say the page was never opened with a connection.
 */

let shown = 0;
const listeners = new Set<() => void>();

export function subscribeDeviceCopy(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a screen on the page shows the device's copy now. */
export const deviceCopyShown = () => shown > 0;

/** Marks the calling screen as showing the device's copy while `active`. */
export function useShowsDeviceCopy(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    shown += 1;
    for (const listener of listeners) listener();
    return () => {
      shown -= 1;
      for (const listener of listeners) listener();
    };
  }, [active]);
}

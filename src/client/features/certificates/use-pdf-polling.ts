import { useEffect, useState } from 'react';

/** How often a certificate whose PDF is being prepared is read again. */
export const CERTIFICATE_POLL_MS = 1_500;
/** How long it is read again before the page stops and offers to check again. */
export const CERTIFICATE_POLL_LIMIT_MS = 60_000;

export type TPdfPolling = ReturnType<typeof usePdfPolling>;

/**
 * Reading certificates again while a PDF is being prepared, for a while: `interval` is the query's
 * refetch interval (false once it gave up, see `usePollLimit`); `checkAgain` starts another round.
 */
export function usePdfPolling() {
  const [gaveUp, setGaveUp] = useState(false);
  const [round, setRound] = useState(0);
  function checkAgain(refetch: () => unknown) {
    setGaveUp(false);
    setRound((old) => old + 1);
    void refetch();
  }
  return { gaveUp, round, interval: gaveUp ? (false as const) : CERTIFICATE_POLL_MS, giveUp: () => setGaveUp(true), checkAgain };
}

/** Stops the round once the page has waited the limit for a PDF. */
export function usePollLimit(waiting: boolean, polling: TPdfPolling) {
  const { round, giveUp } = polling;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setTimeout(giveUp, CERTIFICATE_POLL_LIMIT_MS);
    return () => window.clearTimeout(timer);
    // giveUp only sets state: a new function each render changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting, round]);
}

import { useCallback, useEffect, useRef } from 'react';
import { type NavigateOptions, useNavigate } from 'react-router-dom';

/**
 * navigate(), after a delay; `before` runs just ahead of the move. The pending move is dropped if
 * the screen goes away first.
 */
export function useDelayedNavigate() {
  const navigate = useNavigate();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(
    (to: string, delayMs: number, options?: NavigateOptions, before?: () => void) => {
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        before?.();
        navigate(to, options);
      }, delayMs);
    },
    [navigate],
  );
}

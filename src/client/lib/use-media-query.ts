import { useEffect } from 'react';

/** Matches the "wide" side of the spec's 600 px breakpoint (the same query as the CSS `wide:` variant). */
export const WIDE_SCREEN_QUERY = '(width > 600px)';

/**
 * Closes a narrow-screen drawer when the window grows past the breakpoint, where the drawer's
 * trigger is hidden and the full menu shows. `setOpen` must be stable (a useState setter).
 */
export function useCloseWhenWide(setOpen: (open: boolean) => void): void {
  useEffect(() => {
    const list = window.matchMedia(WIDE_SCREEN_QUERY);
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) setOpen(false);
    };
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [setOpen]);
}

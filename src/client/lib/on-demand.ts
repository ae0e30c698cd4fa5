import { useEffect, useState } from 'react';

/**
 * Code a screen does not need to draw itself (a dialog, a drawer), in its own chunk: fetched once,
 * kept once it has come. A failed fetch is forgotten, so the next one tries again.
 */
export type TOnDemand<M> = {
  /** The module, if it has come. */
  get(): M | undefined;
  load(): Promise<M>;
};

export function onDemand<M>(load: () => Promise<M>): TOnDemand<M> {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  return {
    get: () => module,
    load: () =>
      (pending ??= load().then(
        (loaded) => (module = loaded),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
  };
}

/** How long a browser without idle callbacks waits before fetching code that is not wanted yet. */
const IDLE_FALLBACK_MS = 1500;

/**
 * The module of `code` once it has come. It is fetched when the browser is first idle after the
 * component mounts (if `prefetchIf` agrees then), so it is usually here before the person asks
 * for it, and at once when `wanted`. When a wanted fetch fails (the connection dropped),
 * `onFailure` is called: the caller says so and stands down; the next time it is wanted the fetch
 * is tried again.
 */
export function useOnDemand<M>(
  code: TOnDemand<M>,
  wanted: boolean,
  onFailure: () => void,
  { prefetchIf = () => true }: { prefetchIf?: () => boolean } = {},
): M | undefined {
  const [module, setModule] = useState(code.get);
  useEffect(() => {
    if (module) return;
    let live = true;
    const fetch = (failed: () => void) =>
      code.load().then(
        (loaded) => live && setModule(() => loaded),
        () => live && failed(),
      );
    if (wanted) {
      void fetch(onFailure);
      return () => void (live = false);
    }
    const prefetch = () => {
      if (prefetchIf()) void fetch(() => {});
    };
    const idle = typeof requestIdleCallback === 'function';
    const handle = idle ? requestIdleCallback(prefetch) : window.setTimeout(prefetch, IDLE_FALLBACK_MS);
    return () => {
      live = false;
      if (idle) cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
    // onFailure and prefetchIf are read when needed; a new function each render must not refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, module, wanted]);
  return module;
}

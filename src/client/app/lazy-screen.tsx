import { type ComponentType, lazy } from 'react';

/** A lazily loaded screen that can be loaded ahead of its first render. */
export type TLazyScreen = ComponentType & {
  /** Loads the screen's code (and, for an area with screens of its own, the one at `pathname`). */
  preload(pathname?: string): Promise<unknown>;
};

/**
 * React.lazy for a module's named export, with preload(): once the code is here the screen
 * renders at once, without a pass through the Suspense fallback (no spinner, nothing shifts, and
 * no wait for React to reveal the boundary).
 */
export function lazyNamed<M, K extends keyof M>(load: (pathname?: string) => Promise<M>, name: K): TLazyScreen {
  let Loaded: ComponentType | undefined;
  const preload = (pathname?: string) => load(pathname).then((module) => (Loaded = module[name] as ComponentType));
  const Lazy = lazy(async () => ({ default: await preload() }));
  return Object.assign(() => (Loaded ? <Loaded /> : <Lazy />), { preload });
}

import { type ComponentType, lazy } from 'react';

/** A component whose code comes later, and can be loaded ahead of its first render. */
export type TLazyComponent<P extends object = object> = ComponentType<P> & {
  /** Loads the component's code. */
  preload(): Promise<unknown>;
};

/** The props of a module's export when it is a component (none when the module is not typed). */
type TPropsOf<C> = C extends ComponentType<infer P extends object> ? P : object;

/**
 * React.lazy for a module's named export, with preload(): the way a component's code comes later
 * (every screen of the route table, the data providers, the admin area, the toaster, the profile's
 * creation form). Until the code is here, the nearest Suspense boundary shows its fallback and a
 * failed fetch goes to the error boundary; once it is here the component renders at once, without
 * a pass through the fallback (no spinner, nothing shifts, and no wait for React to reveal the
 * boundary). Code that a screen fetches only when the person asks for it, and whose failure the
 * screen handles itself (a dialog, a drawer), comes through lib/on-demand.ts instead.
 */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): TLazyComponent<TPropsOf<M[K]>> {
  type P = TPropsOf<M[K]>;
  let Loaded: ComponentType<P> | undefined;
  const preload = () => load().then((module) => (Loaded = module[name] as ComponentType<P>));
  const Lazy = lazy(async () => ({ default: await preload() }));
  return Object.assign((props: P) => (Loaded ? <Loaded {...props} /> : <Lazy {...props} />), { preload });
}

import { Suspense, useSyncExternalStore } from 'react';
import { lazyNamed } from '@/lib/lazy-component.tsx';

// Toasts only ever follow an action on a screen that calls the API, so the toaster's code is
// fetched with the first such screen (app/providers.tsx asks for it), never with the home page.
const Toaster = lazyNamed(() => import('@/components/ui/sonner.tsx'), 'Toaster');

let wanted = false;
const listeners = new Set<() => void>();

/** Mounts the toaster from now on; it then stays for the whole visit. */
export function wantToaster() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Sonner's toaster (top right, rich colours), mounted once for the whole app when first wanted. */
export function ToasterOutlet() {
  // Not in the server's rendering of a page (prerender.tsx): the toaster mounts after hydration.
  const show = useSyncExternalStore(subscribe, () => wanted, () => false);
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

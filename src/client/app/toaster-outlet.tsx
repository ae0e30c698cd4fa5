import { Suspense, lazy } from 'react';

// Toasts only ever follow a user's action, so the toaster need not arrive before the first paint.
const Toaster = lazy(() => import('@/components/ui/sonner.tsx').then((m) => ({ default: m.Toaster })));

/** Sonner's toaster (top right, rich colours), mounted once for the whole app. */
export function ToasterOutlet() {
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

import type { ComponentProps } from 'react';
import { Toaster as SonnerToaster } from 'sonner';

/** The app's toast outlet: top right, coloured by kind, closable. */
export function Toaster(props: ComponentProps<typeof SonnerToaster>) {
  return (
    <SonnerToaster
      position="top-right"
      richColors
      closeButton
      toastOptions={{ style: { fontFamily: 'var(--font-sans)' } }}
      {...props}
    />
  );
}

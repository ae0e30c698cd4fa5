import type { CSSProperties, ComponentProps } from 'react';
import { Toaster as SonnerToaster } from 'sonner';

/**
 * sonner's coloured toasts, with text dark enough on their pale backgrounds (WCAG AA, 4.5:1 at
 * their 13 px): its own error red on its pink is 4.3:1, its warning orange and info blue less.
 */
const READABLE_COLOURS = {
  '--error-text': '#b91c1c',
  '--warning-text': '#9a3412',
  '--info-text': '#1d4ed8',
} as CSSProperties;

/** The app's toast outlet: top right, coloured by kind, closable. */
export function Toaster(props: ComponentProps<typeof SonnerToaster>) {
  return (
    <SonnerToaster
      position="top-right"
      richColors
      closeButton
      style={READABLE_COLOURS}
      toastOptions={{ style: { fontFamily: 'var(--font-sans)' } }}
      {...props}
    />
  );
}

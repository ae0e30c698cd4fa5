import { Loader2 } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

export type SpinnerProps = ComponentProps<'span'> & {
  /** What is loading, read out by screen readers. */
  label?: string;
  size?: 'sm' | 'default' | 'lg';
};

const sizes = { sm: 'size-4', default: 'size-6', lg: 'size-10' } as const;

export function Spinner({ className, label = 'Loading…', size = 'default', ...props }: SpinnerProps) {
  return (
    <span
      data-slot="spinner"
      role="status"
      aria-live="polite"
      className={cn('inline-flex items-center justify-center text-sea-700', className)}
      {...props}
    >
      <Loader2 className={cn('animate-spin', sizes[size])} aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

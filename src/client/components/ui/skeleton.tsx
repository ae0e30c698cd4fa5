import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/** A placeholder block shown while content loads. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div data-slot="skeleton" aria-hidden className={cn('animate-pulse rounded-md bg-navy-100', className)} {...props} />
  );
}

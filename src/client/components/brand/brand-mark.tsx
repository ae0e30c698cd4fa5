import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/** The academy's mark: an anchor on a navy tile (the same drawing as the favicon). Give it a size-* class. */
export function BrandMark({ className, ...props }: ComponentProps<'svg'>) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden focusable="false" className={cn('shrink-0', className)} {...props}>
      <rect width="64" height="64" rx="14" fill="#0b2545" />
      <g fill="none" stroke="#5eead4" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="32" cy="15" r="5" />
        <path d="M32 20v32" />
        <path d="M22 29h20" />
        <path d="M14 38c2 9 9 14 18 14s16-5 18-14" />
        <path d="M10 41l4-3 4 3" />
        <path d="M46 41l4-3 4 3" />
      </g>
    </svg>
  );
}

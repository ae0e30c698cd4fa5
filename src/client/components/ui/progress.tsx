import { Progress as ProgressPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

export type ProgressProps = ComponentProps<typeof ProgressPrimitive.Root> & {
  /** 0 to 100; null or undefined shows an indeterminate bar. */
  value?: number | null;
};

export function Progress({ className, value, ...props }: ProgressProps) {
  const determinate = typeof value === 'number';
  const clamped = determinate ? Math.min(100, Math.max(0, value)) : 0;
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      value={determinate ? clamped : null}
      className={cn('relative h-2.5 w-full overflow-hidden rounded-full bg-navy-100', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        data-slot="progress-indicator"
        className={cn(
          'h-full rounded-full bg-sea-600 transition-transform duration-300',
          determinate ? 'w-full' : 'w-2/5 animate-progress-indeterminate',
        )}
        style={determinate ? { transform: `translateX(-${100 - clamped}%)` } : undefined}
      />
    </ProgressPrimitive.Root>
  );
}

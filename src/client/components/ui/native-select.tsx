import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/**
 * The browser's own select, drawn like the inputs. For short fixed lists on public forms: it needs
 * no script to show its value or open (phones show their own picker), so the server's rendering
 * of the page is already right, and it costs the page none of the popover code of ui/select.tsx.
 */
export function NativeSelect({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className={cn('relative', className)}>
      <select
        data-slot="native-select"
        className={cn(
          'flex h-10 w-full appearance-none rounded-md border border-input bg-background py-2 pr-9 pl-3 text-sm text-foreground shadow-xs outline-none',
          'focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40',
          'aria-invalid:border-destructive aria-invalid:ring-destructive/30',
          'disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-60',
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-50" aria-hidden />
    </div>
  );
}

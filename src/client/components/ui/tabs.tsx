import { Tabs as TabsPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

export const Tabs = TabsPrimitive.Root;

/** The row of tabs: a segmented control on a muted track, as wide as the screen on a phone. */
export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      data-slot="tabs-list"
      className={cn('flex w-full items-stretch gap-1 rounded-lg bg-navy-100 p-1 sm:inline-flex sm:w-auto', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      data-slot="tabs-trigger"
      className={cn(
        'inline-flex min-h-9 min-w-0 flex-1 items-center justify-center gap-2 rounded-md px-3 py-1 text-sm font-semibold whitespace-nowrap text-navy-700 transition-colors outline-none sm:flex-none',
        'hover:text-navy-900 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-navy-100',
        'data-[state=active]:bg-background data-[state=active]:text-navy-900 data-[state=active]:shadow-sm',
        '[&_svg]:size-4 [&_svg]:shrink-0',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  // The panel itself takes focus after the tabs (Radix), so it shows a ring like any control.
  return (
    <TabsPrimitive.Content
      data-slot="tabs-content"
      className={cn('rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      {...props}
    />
  );
}

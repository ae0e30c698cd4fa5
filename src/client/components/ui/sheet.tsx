import { type VariantProps, cva } from 'class-variance-authority';
import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/** A drawer that slides in from one side: a modal dialog underneath (focus trap, Escape, overlay). */
export const Sheet = DialogPrimitive.Root;
export const SheetTrigger = DialogPrimitive.Trigger;
export const SheetClose = DialogPrimitive.Close;

const sheetVariants = cva(
  'fixed inset-y-0 z-50 flex h-dvh max-w-[85vw] flex-col bg-background shadow-2xl outline-none',
  {
    variants: {
      side: {
        right: 'right-0 border-l border-border data-[state=open]:animate-slide-in-right data-[state=closed]:animate-slide-out-right',
        left: 'left-0 border-r border-border data-[state=open]:animate-slide-in-left data-[state=closed]:animate-slide-out-left',
      },
    },
    defaultVariants: { side: 'right' },
  },
);

export type SheetContentProps = ComponentProps<typeof DialogPrimitive.Content> &
  VariantProps<typeof sheetVariants> & {
    /** Drawer width in pixels (or any CSS length). */
    width?: number | string;
    /** Show the corner close button (labelled "Close menu" unless closeLabel says otherwise). */
    showCloseButton?: boolean;
    closeLabel?: string;
  };

export function SheetContent({
  className,
  children,
  side,
  width = 320,
  showCloseButton = true,
  closeLabel = 'Close menu',
  style,
  ...props
}: SheetContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay
        data-slot="sheet-overlay"
        className="fixed inset-0 z-50 bg-navy-950/45 data-[state=open]:animate-fade-in data-[state=closed]:animate-fade-out"
      />
      <DialogPrimitive.Content
        data-slot="sheet-content"
        className={cn(sheetVariants({ side }), className)}
        style={{ width, ...style }}
        {...props}
      >
        {children}
        {showCloseButton && (
          <DialogPrimitive.Close
            className="absolute top-3 right-3 rounded-md p-2 text-muted-foreground transition-colors outline-none hover:bg-navy-50 hover:text-navy-900 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X className="size-5" aria-hidden />
            <span className="sr-only">{closeLabel}</span>
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function SheetHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="sheet-header" className={cn('flex flex-col gap-1 p-4 pr-12', className)} {...props} />;
}

export function SheetTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="sheet-title"
      className={cn('text-base font-semibold text-navy-900', className)}
      {...props}
    />
  );
}

export function SheetDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="sheet-description"
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}

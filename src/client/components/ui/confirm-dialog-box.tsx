import { Loader2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';

export type TConfirmDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** What the confirm button reads while the server works (defaults to the confirm label). */
  pendingLabel?: string;
  destructive?: boolean;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /**
   * Where focus goes once the dialog has closed; by default back to the control that was focused
   * when it opened.
   * A screen whose confirmed action removes that control calls `event.preventDefault()` and
   * moves focus itself.
   */
  onCloseAutoFocus?: (event: Event) => void;
  /** A short summary of what is being confirmed, shown in a panel under the question. */
  children?: ReactNode;
};

/** The dialog of ConfirmDialog (confirm-dialog.tsx), in a chunk of its own with Radix's dialog. */
export function ConfirmDialogBox({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  destructive = false,
  pending,
  onConfirm,
  onClose,
  onCloseAutoFocus,
  children,
}: TConfirmDialogProps) {
  // The dialog opens from a screen's state, not from a Radix trigger, so Radix has nothing to give
  // focus back to: remember what had it (layout effect: before the dialog takes focus).
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
    >
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented) return;
          event.preventDefault();
          if (opener.current?.isConnected) opener.current.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children && <div className="grid gap-1 rounded-lg border border-border bg-muted px-4 py-3 text-sm">{children}</div>}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogPrimitive.Action asChild>
            <Button
              variant={destructive ? 'destructive' : 'default'}
              disabled={pending}
              onClick={(event) => {
                // Keep the dialog open until the server has answered.
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending && <Loader2 className="animate-spin" aria-hidden />}
              {pending && pendingLabel ? pendingLabel : confirmLabel}
            </Button>
          </AlertDialogPrimitive.Action>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

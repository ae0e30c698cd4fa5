import { type FormEvent, type ReactNode, useLayoutEffect, useRef } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';

export type TFormDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  submitLabel: string;
  /** What the submit button reads while the server works (defaults to the submit label). */
  pendingLabel?: string;
  pending: boolean;
  /** The form was submitted (Enter in a field or the submit button); the default is already prevented. */
  onSubmit: () => void;
  onClose: () => void;
  /** The form's fields. */
  children: ReactNode;
};

/**
 * The dialog of FormDialog (form-dialog.tsx), in a chunk of its own with Radix's dialog: a small
 * form whose fields the screen gives, Cancel and a submit button. It stays open, its buttons
 * disabled, until the server has answered. The browser's own checks are off (`noValidate`): the
 * server's words land on the fields.
 */
export function FormDialogBox({ open, title, description, submitLabel, pendingLabel, pending, onSubmit, onClose, children }: TFormDialogProps) {
  // Opened from a screen's state, not a Radix trigger: remember what had focus to give it back.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!pending) onSubmit();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onClose();
      }}
    >
      <DialogContent
        showCloseButton={!pending}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (opener.current?.isConnected) opener.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-5" aria-busy={pending || undefined}>
          {children}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={pending}>
                Cancel
              </Button>
            </DialogClose>
            <SubmitButton pending={pending}>{pending && pendingLabel ? pendingLabel : submitLabel}</SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

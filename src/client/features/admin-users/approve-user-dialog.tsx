import { Loader2 } from 'lucide-react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';

type ApproveUserDialogProps = {
  /** The user being approved; the dialog is open while one is set. */
  user: { name: string; email: string } | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** 'Confirm Approval' (spec section 2): stays open, reading 'Approving...', until the server answers. */
export function ApproveUserDialog({ user, pending, onConfirm, onClose }: ApproveUserDialogProps) {
  return (
    <AlertDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Confirm Approval</AlertDialogTitle>
          <AlertDialogDescription>Are you sure you want to approve this user?</AlertDialogDescription>
        </AlertDialogHeader>
        {user && (
          <div className="rounded-lg border border-border bg-muted px-4 py-3 text-sm">
            <p className="font-semibold text-navy-900">{user.name}</p>
            <p className="break-all text-muted-foreground">{user.email}</p>
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={pending}
            onClick={(event) => {
              // Keep the dialog open until the approval is done.
              event.preventDefault();
              onConfirm();
            }}
          >
            {pending && <Loader2 className="animate-spin" aria-hidden />}
            {pending ? 'Approving...' : 'Yes, Approve'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

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
    <ConfirmDialog
      open={user !== null}
      title="Confirm Approval"
      description="Are you sure you want to approve this user?"
      confirmLabel="Yes, Approve"
      pendingLabel="Approving..."
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {user && (
        <>
          <p className="font-semibold text-navy-900">{user.name}</p>
          <p className="break-all text-muted-foreground">{user.email}</p>
        </>
      )}
    </ConfirmDialog>
  );
}

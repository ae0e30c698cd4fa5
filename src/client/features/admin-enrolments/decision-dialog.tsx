import type { TEnrolmentRequestItem } from '../../../shared/schemas/enrolment.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import type { TDecision } from '@/features/admin-enrolments/api/use-enrolment-decision.ts';

type DecisionDialogProps = {
  /** The request and what to do with it; the dialog is open while one is set. */
  target: { request: TEnrolmentRequestItem; decision: TDecision } | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** Asks before accepting or rejecting a request, and stays open until the server has answered. */
export function DecisionDialog({ target, pending, onConfirm, onClose }: DecisionDialogProps) {
  const accepting = target?.decision !== 'reject';
  return (
    <ConfirmDialog
      open={target !== null}
      title={accepting ? 'Accept request' : 'Reject request'}
      description={
        accepting
          ? 'Are you sure you want to accept this request? The learner can start the course at once.'
          : 'Are you sure you want to reject this request? The learner may ask again later.'
      }
      confirmLabel={accepting ? 'Yes, Accept' : 'Yes, Reject'}
      destructive={!accepting}
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {target && (
        <>
          <p className="font-semibold text-navy-900">{target.request.course.title}</p>
          <p className="text-navy-900">{target.request.user.name}</p>
          <p className="break-all text-muted-foreground">{target.request.user.email}</p>
        </>
      )}
    </ConfirmDialog>
  );
}

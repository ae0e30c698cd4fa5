import { useState } from 'react';
import type { TEnrolmentRequestItem } from '../../../shared/schemas/enrolment.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmailAddress } from '@/components/ui/email-address.tsx';
import type { TDecision } from '@/features/admin-enrolments/api/use-enrolment-decision.ts';

export type TDecisionTarget = { request: TEnrolmentRequestItem; decision: TDecision };

/** The question, and what the decision means for the learner given where the request stands. */
function wording({ request, decision }: TDecisionTarget): { title: string; description: string } {
  if (decision === 'accept') {
    return {
      title: 'Accept request',
      description:
        request.status === 'rejected'
          ? 'Are you sure you want to accept this request? It was rejected before; the learner can start the course at once.'
          : 'Are you sure you want to accept this request? The learner can start the course at once.',
    };
  }
  return {
    title: 'Reject request',
    description:
      request.status === 'approved'
        ? 'Are you sure you want to reject this request? The learner loses access to the course and may ask again later.'
        : 'Are you sure you want to reject this request? The learner may ask again later.',
  };
}

type DecisionDialogProps = {
  /** The request and what to do with it; the dialog is open while one is set. */
  target: TDecisionTarget | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  onCloseAutoFocus?: (event: Event) => void;
};

/** Asks before accepting or rejecting a request, and stays open until the server has answered. */
export function DecisionDialog({ target, pending, onConfirm, onClose, onCloseAutoFocus }: DecisionDialogProps) {
  // The last request asked about stays in the dialog while it fades out.
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const current = target ?? shown;
  const accepting = current?.decision !== 'reject';
  const { title, description } = current ? wording(current) : { title: '', description: '' };
  return (
    <ConfirmDialog
      open={target !== null}
      title={title}
      description={description}
      confirmLabel={accepting ? 'Yes, Accept' : 'Yes, Reject'}
      pendingLabel={accepting ? 'Accepting...' : 'Rejecting...'}
      destructive={!accepting}
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      {current && (
        <>
          <p className="font-semibold text-navy-900">{current.request.course.title}</p>
          <p className="text-navy-900">{current.request.user.name}</p>
          <EmailAddress email={current.request.user.email} className="text-muted-foreground" />
        </>
      )}
    </ConfirmDialog>
  );
}

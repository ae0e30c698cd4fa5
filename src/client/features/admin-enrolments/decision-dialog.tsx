import { Loader2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import type { TEnrolmentRequestItem } from '../../../shared/schemas/enrolment.ts';
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
import type { TDecision } from '@/features/admin-enrolments/use-enrolment-decision.ts';

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
    <AlertDialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{accepting ? 'Accept request' : 'Reject request'}</AlertDialogTitle>
          <AlertDialogDescription>
            {accepting
              ? 'Are you sure you want to accept this request? The learner can start the course at once.'
              : 'Are you sure you want to reject this request? The learner may ask again later.'}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {target && (
          <div className="grid gap-1 rounded-lg border border-border bg-muted px-4 py-3 text-sm">
            <p className="font-semibold text-navy-900">{target.request.course.title}</p>
            <p className="text-navy-900">{target.request.user.name}</p>
            <p className="break-all text-muted-foreground">{target.request.user.email}</p>
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogPrimitive.Action asChild>
            <Button
              variant={accepting ? 'default' : 'destructive'}
              disabled={pending}
              onClick={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending && <Loader2 className="animate-spin" aria-hidden />}
              {accepting ? 'Yes, Accept' : 'Yes, Reject'}
            </Button>
          </AlertDialogPrimitive.Action>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

import { toast } from 'sonner';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import type { TConfirmDialogProps } from '@/components/ui/confirm-dialog-box.tsx';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';

const dialogCode = onDemand(() => import('@/components/ui/confirm-dialog-box.tsx'));

/**
 * Asks before an action and stays open, its buttons disabled, until the server has answered, so
 * the person sees the outcome of what they confirmed.
 * The dialog's code (Radix's dialog, focus trap and scroll lock) is not needed to draw the screen:
 * it comes when the browser is first idle after the screen shows, or when the dialog opens. If
 * the connection fails then, the person is told and nothing is confirmed.
 */
export function ConfirmDialog(props: TConfirmDialogProps) {
  const code = useOnDemand(dialogCode, props.open, () => {
    toast.error(COMMON_MESSAGES.networkError);
    props.onClose();
  });
  return code ? <code.ConfirmDialogBox {...props} /> : null;
}

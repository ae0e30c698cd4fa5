import { toast } from 'sonner';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import type { TFormDialogProps } from '@/components/ui/form-dialog-box.tsx';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';

const dialogCode = onDemand(() => import('@/components/ui/form-dialog-box.tsx'));

/**
 * A small form in a dialog (a test's attempts policy). As with ConfirmDialog, the dialog's code
 * (Radix's dialog, focus trap and scroll lock) is not needed to draw the screen: it comes when the
 * browser is first idle after the screen shows, or when the dialog opens (decision 040). If the
 * connection fails then, the person is told and the dialog stands down.
 */
export function FormDialog(props: TFormDialogProps) {
  const code = useOnDemand(dialogCode, props.open, () => {
    toast.error(COMMON_MESSAGES.networkError);
    props.onClose();
  });
  return code ? <code.FormDialogBox {...props} /> : null;
}

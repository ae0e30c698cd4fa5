import { toast } from 'sonner';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import type { TReminderHistoryProps } from '@/features/admin-certificates/reminder-history-box.tsx';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';

const dialogCode = onDemand(() => import('@/features/admin-certificates/reminder-history-box.tsx'));

/** A certificate's reminder history in a dialog, whose code comes when the browser is idle or when it opens (decision 040). */
export function ReminderHistory(props: TReminderHistoryProps) {
  const code = useOnDemand(dialogCode, props.certificate !== null, () => {
    toast.error(COMMON_MESSAGES.networkError);
    props.onClose();
  });
  return code ? <code.ReminderHistoryBox {...props} /> : null;
}

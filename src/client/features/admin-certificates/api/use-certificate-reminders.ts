import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { trpc } from '@/lib/trpc.ts';

/** certificates.reminders: a certificate's reminder history, asked for only while its dialog is open. */
export function useCertificateReminders(certificateId: string, open: boolean) {
  return trpc.certificates.reminders.useQuery({ certificateId }, { enabled: open, staleTime: 0 });
}

/**
 * certificates.runRemindersNow: the reminders that are due, queued at once instead of at the next
 * scheduled run. The result is said in a toast and kept for the screen to show.
 */
export function useRunRemindersNow() {
  const utils = trpc.useUtils();
  const run = trpc.certificates.runRemindersNow.useMutation({
    onSuccess: ({ queued }) => {
      toast.success(MESSAGES.certificateAdmin.remindersRun(queued), { duration: ADMIN_TOAST_MS });
    },
    onError: (error) => {
      toast.error(errorMessage(error, { fallback: MESSAGES.common.internal }), { duration: ADMIN_TOAST_MS });
    },
    onSettled: () => Promise.all([utils.certificates.adminList.invalidate(), utils.certificates.reminders.invalidate()]),
  });
  return run;
}

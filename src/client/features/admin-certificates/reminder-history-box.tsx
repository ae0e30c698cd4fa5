import type { TAdminCertificateRow } from '../../../shared/schemas/certificate.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { LoadError } from '@/components/lists/list-states.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCertificateReminders } from '@/features/admin-certificates/api/use-certificate-reminders.ts';
import { reminderStage } from '@/features/admin-certificates/certificate-words.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCalendarDate, formatDateTime } from '@/lib/format.ts';

export type TReminderHistoryProps = { certificate: TAdminCertificateRow | null; onClose: () => void };

/** The list of a certificate's reminders: each stage, when it was queued and sent, to whom and who ran it. */
function ReminderList({ certificate }: { certificate: TAdminCertificateRow }) {
  const reminders = useCertificateReminders(certificate.id, true);
  if (reminders.isError) {
    return (
      <LoadError
        title="Failed to load the reminders."
        message={errorMessage(reminders.error, { fallback: MESSAGES.common.internal })}
        onRetry={() => void reminders.refetch()}
        retrying={reminders.isFetching}
      />
    );
  }
  if (!reminders.data) {
    return (
      <div className="grid gap-2" aria-busy>
        <span role="status" className="sr-only">
          Loading the reminders…
        </span>
        <Skeleton className="h-14" />
        <Skeleton className="h-14" />
      </div>
    );
  }
  if (reminders.data.length === 0) return <p className="text-sm text-muted-foreground">No reminder has been sent for this certificate.</p>;
  return (
    <ol className="grid gap-2" aria-label={`Reminders of certificate ${certificate.number}`}>
      {reminders.data.map((reminder) => (
        <li key={`${reminder.daysBefore}:${reminder.validUntil}`} className="grid gap-0.5 rounded-lg border border-border px-3 py-2 text-sm">
          <p className="font-semibold text-navy-900">
            {reminderStage(reminder.daysBefore)} expiry <span className="font-normal text-muted-foreground">(valid until {formatCalendarDate(reminder.validUntil)})</span>
          </p>
          <p>{reminder.sentAt ? `Sent ${formatDateTime(reminder.sentAt)}` : `Queued ${formatDateTime(reminder.queuedAt)}, not sent yet`}</p>
          <p className="break-all text-muted-foreground">To {reminder.to ?? 'the holder’s address'}</p>
          <p className="text-muted-foreground">Run by {reminder.runBy === 'schedule' ? 'the daily schedule' : reminder.runBy}</p>
        </li>
      ))}
    </ol>
  );
}

/** The dialog of ReminderHistory (reminder-history.tsx), in a chunk of its own with Radix's dialog. */
export function ReminderHistoryBox({ certificate, onClose }: TReminderHistoryProps) {
  return (
    <Dialog
      open={certificate !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reminder history</DialogTitle>
          <DialogDescription>
            {certificate ? `Expiry reminders of certificate ${certificate.number} (${certificate.holder.name}), each stage sent once.` : ''}
          </DialogDescription>
        </DialogHeader>
        {certificate && <ReminderList certificate={certificate} />}
      </DialogContent>
    </Dialog>
  );
}

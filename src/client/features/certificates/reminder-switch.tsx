import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useReminderPreference, useSetReminderPreference } from '@/features/certificates/api/certificate-queries.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { cn } from '@/lib/utils.ts';

const M = MESSAGES.certificateAdmin;

/**
 * "E-mail me before a certificate expires": the browser's own checkbox in the role of a switch (a
 * label, the keyboard and the screen reader's on/off for free), drawn as a track and a knob. The
 * switch shows what the server kept; while a change is saved it shows the change, and the saved
 * state is then said.
 */
export function ReminderSwitch() {
  const preference = useReminderPreference();
  const save = useSetReminderPreference();
  const [said, setSaid] = useState<{ text: string; failed: boolean }>();
  const checked = save.isPending ? save.variables.remindersOn : (preference.data?.remindersOn ?? false);

  function change(remindersOn: boolean) {
    setSaid(undefined);
    save.mutate(
      { remindersOn },
      {
        onSuccess: (saved) => setSaid({ text: saved.remindersOn ? M.remindersOn : M.remindersOff, failed: false }),
        onError: (error) => setSaid({ text: errorMessage(error, { fallback: MESSAGES.common.internal }), failed: true }),
      },
    );
  }

  return (
    <section aria-labelledby="reminder-switch-label" className="flex items-start gap-3 rounded-xl border border-border bg-card p-4 shadow-card sm:items-center sm:gap-4 sm:p-5">
      <span className="hidden size-10 shrink-0 items-center justify-center rounded-full bg-sea-50 text-sea-700 sm:flex">
        <BellRing className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <label id="reminder-switch-label" htmlFor="reminder-switch" className="font-semibold text-navy-900">
          E-mail me before a certificate expires
        </label>
        <p id="reminder-switch-hint" className="mt-0.5 text-sm text-muted-foreground">
          Reminders come weeks ahead and again closer to the day, with the link to enrol in the refresher course.
        </p>
        <p role="status" className={cn('mt-1 text-sm empty:hidden', said?.failed ? 'font-medium text-destructive' : 'text-success')}>
          {said?.text}
        </p>
        {preference.isError && (
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm font-medium text-destructive">
            Your reminder choice could not be loaded.
            <Button type="button" variant="outline" size="sm" onClick={() => void preference.refetch()} disabled={preference.isFetching}>
              Try again
            </Button>
          </p>
        )}
      </div>
      {preference.isPending ? (
        <Skeleton className="h-7 w-12 shrink-0 rounded-full" />
      ) : (
        <span className="relative inline-flex shrink-0 items-center">
          <input
            id="reminder-switch"
            type="checkbox"
            role="switch"
            aria-describedby="reminder-switch-hint"
            checked={checked}
            disabled={save.isPending || preference.isError}
            onChange={(event) => change(event.target.checked)}
            className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none rounded-full opacity-0 disabled:cursor-not-allowed"
          />
          <span
            aria-hidden
            className={cn(
              'flex h-7 w-12 items-center rounded-full p-0.5 transition-colors',
              'peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2 peer-disabled:opacity-60',
              checked ? 'bg-sea-700' : 'bg-navy-200',
            )}
          >
            <span className={cn('size-6 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-5' : 'translate-x-0')} />
          </span>
          <span className="ml-2 w-7 text-sm font-medium text-navy-900" aria-hidden>
            {checked ? 'On' : 'Off'}
          </span>
        </span>
      )}
    </section>
  );
}

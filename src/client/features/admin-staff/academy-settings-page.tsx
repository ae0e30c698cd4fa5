import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useAcademySettings, useUpdateAcademySettings } from '@/features/admin-staff/api/use-academy-settings.ts';
import { errorMessage } from '@/lib/api-errors.ts';

const CARD = 'rounded-xl border border-border bg-card p-5 shadow-card';

/** /admin-dashboard/academy-settings: the owner's settings of the academy. */
export function AcademySettingsPage() {
  const settings = useAcademySettings();
  const update = useUpdateAcademySettings();
  // The field starts from the saved value, and again whenever the saved value changes.
  const [edit, setEdit] = useState<{ from: number; text: string } | null>(null);
  const [problem, setProblem] = useState<string>();
  const [confirmOff, setConfirmOff] = useState(false);

  const saved = settings.data;
  const years = saved && edit?.from === saved.retentionYears ? edit.text : String(saved?.retentionYears ?? '');
  const setYears = (text: string) => saved && setEdit({ from: saved.retentionYears, text });

  function save(change: { staffSecondFactorRequired?: boolean; retentionYears?: number }, done?: () => void) {
    setProblem(undefined);
    update.mutate(change, {
      onError: (error) => setProblem(errorMessage(error, { fallback: MESSAGES.common.internal })),
      onSettled: done,
    });
  }

  let body;
  if (settings.isError && !saved) {
    body = <LoadError title={MESSAGES.staff.settingsLoadFailed} message={errorMessage(settings.error, { fallback: MESSAGES.staff.settingsLoadFailed })} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />;
  } else if (!saved) {
    body = (
      <div className="grid gap-4" aria-busy="true" aria-label="Loading the settings">
        <Skeleton className="h-36 rounded-xl" />
        <Skeleton className="h-36 rounded-xl" />
      </div>
    );
  } else {
    const required = saved.staffSecondFactorRequired;
    body = (
      <div className="grid gap-6">
        <FormError message={problem} />
        <section className={CARD} aria-labelledby="second-factor">
          <h2 id="second-factor" className="text-lg font-semibold text-navy-900">
            Second factor required for staff
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {required
              ? 'On: every staff sign-in needs a passkey or a code from an authenticator app as well as the password.'
              : 'Off: staff may sign in with a password alone, unless they set up a second factor themselves.'}
          </p>
          <div className="mt-4">
            {required ? (
              <Button variant="outline" tone="danger" onClick={() => setConfirmOff(true)} disabled={update.isPending}>
                Make it optional
              </Button>
            ) : (
              <Button onClick={() => save({ staffSecondFactorRequired: true })} disabled={update.isPending}>
                Require it again
              </Button>
            )}
          </div>
        </section>
        <section className={CARD} aria-labelledby="retention">
          <h2 id="retention" className="text-lg font-semibold text-navy-900">
            Retention after an erasure
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            When a learner asks for their data to be erased, their issued certificates and the records behind them are kept this many years, then removed.
          </p>
          <form
            className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              const value = Number(years);
              if (!/^\d+$/.test(years.trim()) || value < 1 || value > 100) {
                setProblem(MESSAGES.staff.retentionRange);
                return;
              }
              save({ retentionYears: value });
            }}
          >
            <div className="grid gap-1.5">
              <Label htmlFor="retention-years">Years (1–100)</Label>
              <Input id="retention-years" inputMode="numeric" className="w-32" value={years} onChange={(event) => setYears(event.target.value)} />
            </div>
            <Button type="submit" disabled={update.isPending || years === String(saved.retentionYears)}>
              Save
            </Button>
          </form>
        </section>
      </div>
    );
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.staff.settings)}>
      {body}
      <ConfirmDialog
        open={confirmOff}
        title="Make the second factor optional?"
        description="A stolen or guessed password is then enough to act as a member of staff: approve accounts, change courses and tests, revoke or issue certificates. An inspection may ask why the academy allows it. Members who set up a second factor keep using it."
        confirmLabel="Make it optional"
        pendingLabel="Saving…"
        destructive
        pending={update.isPending}
        onConfirm={() => save({ staffSecondFactorRequired: false }, () => setConfirmOff(false))}
        onClose={() => setConfirmOff(false)}
      />
    </AdminPage>
  );
}

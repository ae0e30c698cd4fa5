import { Award, BellRing, Download, FileSpreadsheet, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS, CERTIFICATE_REVOKE_REASON_MAX_LENGTH } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminCertificateRow } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListSearch } from '@/components/lists/list-search.tsx';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { downloadCertificatesCsv } from '@/features/admin-certificates/api/download-certificates-csv.ts';
import { type TCertificateFilters, useAdminCertificates } from '@/features/admin-certificates/api/use-admin-certificates.ts';
import { useCertificateActions } from '@/features/admin-certificates/api/use-certificate-actions.ts';
import { useCertificateCourses } from '@/features/admin-certificates/api/use-certificate-courses.ts';
import { useRunRemindersNow } from '@/features/admin-certificates/api/use-certificate-reminders.ts';
import type { TCertificateAction } from '@/features/admin-certificates/certificate-actions.tsx';
import { CertificateList } from '@/features/admin-certificates/certificate-list.tsx';
import { CERTIFICATE_SEARCH_MAX_LENGTH, EXPIRING_WITHIN_MAX_DAYS, STATE_LABELS, STATE_ORDER } from '@/features/admin-certificates/certificate-words.ts';
import { ReminderHistory } from '@/features/admin-certificates/reminder-history.tsx';
import { useCertificateFilters } from '@/features/admin-certificates/use-certificate-filters.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCount } from '@/lib/format.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

const CA = MESSAGES.certificateAdmin;

/** Download CSV: every certificate matching the filters, not only the page on screen. */
function DownloadCsvButton({ filters, disabled }: { filters: TCertificateFilters; disabled: boolean }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  async function download() {
    setPending(true);
    const outcome = await downloadCertificatesCsv(filters);
    setPending(false);
    if (outcome.outcome === 'saved') toast.success(CA.exported, { duration: ADMIN_TOAST_MS, description: outcome.fileName });
    else if (outcome.outcome === 'unauthorized') navigate(paths.adminLogin);
    else toast.error(outcome.message ?? CA.exportFailed, { duration: ADMIN_TOAST_MS });
  }
  return (
    <Button variant="outline" onClick={() => void download()} disabled={disabled || pending} aria-busy={pending || undefined}>
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
      Download CSV
    </Button>
  );
}

/** Send due reminders now: the scheduled run, at once; what it did is said beside the button. */
function RunRemindersButton() {
  const run = useRunRemindersNow();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="outline" onClick={() => run.mutate()} disabled={run.isPending} aria-busy={run.isPending || undefined}>
        {run.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <BellRing aria-hidden />}
        Send due reminders now
      </Button>
      <p role="status" className="text-sm text-navy-900">
        {run.data ? CA.remindersRun(run.data.queued) : ''}
      </p>
    </div>
  );
}

/** The course, state and "expiring within" filters beside the search. */
function Filters({ controls }: { controls: ReturnType<typeof useCertificateFilters> }) {
  const courses = useCertificateCourses();
  const { filters } = controls;
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-3" role="group" aria-label="Filters">
      <FormField id="certificates-course" label="Course" error={courses.isError ? MESSAGES.courses.adminLoadFailed : undefined}>
        {(control) => (
          <NativeSelect {...control} value={filters.courseId} onChange={(event) => controls.setCourseId(event.target.value)} disabled={!courses.courses}>
            <option value="">All courses</option>
            {courses.courses?.map((course) => (
              <option key={course.id} value={course.id}>
                {course.isActive ? course.title : `${course.title} (inactive)`}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField id="certificates-state" label="State">
        {(control) => (
          <NativeSelect {...control} value={filters.state} onChange={(event) => controls.setState(event.target.value)}>
            <option value="">Any state</option>
            {STATE_ORDER.map((state) => (
              <option key={state} value={state}>
                {STATE_LABELS[state]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField
        id="certificates-within"
        label="Expiring within (days)"
        error={controls.daysInvalid ? CA.expiringWithin : undefined}
        hint={controls.daysInvalid ? undefined : 'Certificates whose last valid day falls within this many days.'}
      >
        {(control) => (
          <Input
            {...control}
            type="number"
            inputMode="numeric"
            min={1}
            max={EXPIRING_WITHIN_MAX_DAYS}
            step={1}
            placeholder="e.g. 90"
            value={controls.daysText}
            onChange={(event) => controls.setDaysText(event.target.value)}
          />
        )}
      </FormField>
    </div>
  );
}

/** Revoke: the reason is required and kept for the record; the dialog stays open until the server answers. */
function RevokeDialog({ row, onClose, revoke, pending }: { row: TAdminCertificateRow | null; onClose: () => void; revoke: ReturnType<typeof useCertificateActions>['revoke']; pending: boolean }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  function close() {
    setReason('');
    setError(undefined);
    onClose();
  }
  async function submit() {
    if (!row) return;
    if (!reason.trim()) {
      setError(CA.reasonRequired);
      document.getElementById('revoke-reason')?.focus();
      return;
    }
    if (await revoke({ certificateId: row.id, reason: reason.trim() })) close();
  }
  return (
    <FormDialog
      open={row !== null}
      title="Revoke certificate"
      description={row ? `Revoke certificate ${row.number} of ${row.holder.name}? Its verification page will say it was revoked, and it gets no more reminders.` : ''}
      submitLabel="Revoke"
      pendingLabel="Revoking…"
      pending={pending}
      onSubmit={() => void submit()}
      onClose={close}
    >
      <FormField id="revoke-reason" label="Reason" error={error} hint="Kept for the record and shown to the holder, never publicly.">
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={CERTIFICATE_REVOKE_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              if (error) setError(undefined);
            }}
          />
        )}
      </FormField>
    </FormDialog>
  );
}

/**
 * /admin-dashboard/certificates: every certificate, searched and filtered on the server (kept in
 * the address), a page at a time, with its state as the server decided it. Per certificate: its
 * PDF, Revoke, Re-issue, its reminder history and the holder's profile.
 */
export function CertificatesPage() {
  const controls = useCertificateFilters();
  const { filters, paging } = controls;
  const list = useAdminCertificates(filters, paging.page);
  const actions = useCertificateActions();
  const [acting, setActing] = useState<{ action: TCertificateAction; row: TAdminCertificateRow } | null>(null);
  const filtered = Boolean(filters.search || filters.courseId || filters.state || filters.expiringWithinDays !== null);
  const rowFor = (action: TCertificateAction) => (acting?.action === action ? acting.row : null);
  const reissuing = rowFor('reissue');
  const mayManage = useStaffMay('certificates.manage');

  return (
    <AdminPage
      {...adminPageHeadOf(paths.admin.certificates.list)}
      action={
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <Link to={paths.admin.certificates.regulatorExport}>
              <FileSpreadsheet aria-hidden />
              Regulator export
            </Link>
          </Button>
          <DownloadCsvButton filters={filters} disabled={list.data?.total === 0 || controls.typing} />
        </div>
      }
    >
      {mayManage && (
        <div className="mb-6">
          <RunRemindersButton />
        </div>
      )}
      <ListSearch
        id="certificates-search"
        label="Search by learner, e-mail, INDoS number or certificate number"
        value={paging.term}
        onChange={paging.setTerm}
        maxLength={CERTIFICATE_SEARCH_MAX_LENGTH}
        placeholder="Learner, e-mail, INDoS or number"
        searching={list.isFetching && (paging.typing || list.isPlaceholderData)}
        clearable
      />
      <Filters controls={controls} />
      <PagedList
        query={list}
        paging={paging}
        noun="certificates"
        error={
          <LoadError
            title={CA.loadFailed}
            message={errorMessage(list.error, { fallback: CA.loadFailed })}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        }
        loading={
          <div className="grid gap-3" aria-busy>
            <span role="status" className="sr-only">
              Loading certificates…
            </span>
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-24 rounded-xl" />
            ))}
          </div>
        }
        empty={
          <ListEmpty
            icon={Award}
            message={filtered ? 'No certificates match.' : 'No certificates yet.'}
            hint={filtered ? 'Try another search, or clear a filter.' : 'Certificates appear here as learners pass their tests.'}
          />
        }
        summary={({ total, totalIsEstimate }) => (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {totalIsEstimate ? `${formatCount(total)}+ certificates` : total === 1 ? '1 certificate' : `${formatCount(total)} certificates`}
            {filters.search ? ` matching “${filters.search}”` : ''}
          </p>
        )}
      >
        {(rows) => <CertificateList rows={rows} onAction={(action, row) => setActing({ action, row })} />}
      </PagedList>

      <RevokeDialog row={rowFor('revoke')} onClose={() => setActing(null)} revoke={actions.revoke} pending={actions.revoking} />
      <ConfirmDialog
        open={reissuing !== null}
        title="Re-issue certificate"
        description={
          reissuing
            ? `Re-issue certificate ${reissuing.number} of ${reissuing.holder.name}? It keeps the same number and becomes version ${reissuing.version + 1}, printed from the seafarer profile as it is now. The old version will answer superseded.`
            : ''
        }
        confirmLabel="Re-issue"
        pendingLabel="Re-issuing…"
        pending={actions.reissuing}
        onConfirm={() => {
          if (reissuing) void actions.reissue(reissuing.id).finally(() => setActing(null));
        }}
        onClose={() => setActing(null)}
      />
      <ReminderHistory certificate={rowFor('reminders')} onClose={() => setActing(null)} />
    </AdminPage>
  );
}

import { Download, Eye, FileSpreadsheet, Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TRegulatorBatch, TRegulatorBatchQuery } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { CourseDayRangeFields, useCourseDayRange } from '@/components/course/course-day-range.tsx';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { type TBatchFormat, downloadRegulatorBatch } from '@/features/admin-certificates/api/download-regulator-batch.ts';
import { useCertificateCourses } from '@/features/admin-certificates/api/use-certificate-courses.ts';
import { useRegulatorBatch } from '@/features/admin-certificates/api/use-regulator-batch.ts';
import { RegulatorMissingFields } from '@/features/admin-certificates/regulator-missing-fields.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCalendarDate, formatCount } from '@/lib/format.ts';

const CA = MESSAGES.certificateAdmin;
const NOT_VERIFIED_LABEL = 'Not verified';
const dash = (value: string) => value || '—';
/** A holder's value as the file writes it: "Not verified" where no member of staff verified the identity. */
const holderValue = (row: TRegulatorBatch['rows'][number], value: string) => (row.verified ? dash(value) : <span className="text-xs font-medium text-destructive">{NOT_VERIFIED_LABEL}</span>);

/** The batch's rows as the file lists them. */
function BatchRows({ batch }: { batch: TRegulatorBatch }) {
  return (
    <section aria-labelledby="batch-rows" className="grid gap-3">
      <h2 id="batch-rows" className="text-lg font-semibold text-navy-900">
        Rows of the batch
      </h2>
      <Table aria-labelledby="batch-rows">
        <TableHeader>
          <TableRow>
            <TableHead>Certificate</TableHead>
            <TableHead>Name as in passport</TableHead>
            <TableHead>INDoS</TableHead>
            <TableHead>Date of birth</TableHead>
            <TableHead>Passport</TableHead>
            <TableHead>CDC</TableHead>
            <TableHead>Issued, valid until</TableHead>
            <TableHead>Identity verified</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="bg-card">
          {batch.rows.map((row) => (
            <TableRow key={row.certificateId} className={row.missing.length > 0 ? 'bg-yellow-50' : undefined}>
              <TableCell className="font-mono text-xs whitespace-nowrap">{row.certificateNumber}</TableCell>
              <TableCell className="min-w-36 break-words">{holderValue(row, row.nameAsInPassport)}</TableCell>
              <TableCell className="whitespace-nowrap">{holderValue(row, row.indosNo)}</TableCell>
              <TableCell className="whitespace-nowrap">{holderValue(row, row.dateOfBirth ? formatCalendarDate(row.dateOfBirth) : '')}</TableCell>
              <TableCell className="whitespace-nowrap">{holderValue(row, row.passportNumber)}</TableCell>
              <TableCell className="whitespace-nowrap">{holderValue(row, row.cdcNumber)}</TableCell>
              <TableCell className="whitespace-nowrap">
                {formatCalendarDate(row.issueDate)}
                <span className="block text-xs text-muted-foreground">{row.validUntil ? `to ${formatCalendarDate(row.validUntil)}` : 'does not expire'}</span>
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {row.verified ? (
                  <>
                    {dash(row.verifiedBy)}
                    <span className="block text-xs text-muted-foreground">{row.verifiedOn ? formatCalendarDate(row.verifiedOn) : ''}</span>
                  </>
                ) : (
                  <span className="font-medium text-destructive">Not verified</span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** Download CSV and Download XLSX of the batch on screen. */
function BatchDownloads({ query }: { query: TRegulatorBatchQuery }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<TBatchFormat | null>(null);
  async function download(format: TBatchFormat) {
    setPending(format);
    const outcome = await downloadRegulatorBatch(query, format);
    setPending(null);
    if (outcome.outcome === 'saved') toast.success(CA.exported, { duration: ADMIN_TOAST_MS, description: outcome.fileName });
    else if (outcome.outcome === 'unauthorized') navigate(paths.adminLogin);
    else toast.error(outcome.message ?? CA.exportFailed, { duration: ADMIN_TOAST_MS });
  }
  return (
    <div className="flex flex-wrap gap-2">
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button key={format} variant={format === 'xlsx' ? 'default' : 'outline'} onClick={() => void download(format)} disabled={pending !== null} aria-busy={pending === format || undefined}>
          {pending === format ? <Loader2 className="animate-spin" aria-hidden /> : format === 'xlsx' ? <FileSpreadsheet aria-hidden /> : <Download aria-hidden />}
          Download {format.toUpperCase()}
        </Button>
      ))}
    </div>
  );
}

/** The previewed batch: what lacks a field first, then the counts, the downloads and the rows. */
function BatchPreview({ query }: { query: TRegulatorBatchQuery }) {
  const batch = useRegulatorBatch(query);
  if (batch.isError) {
    return (
      <LoadError
        title={CA.batchFailed}
        message={errorMessage(batch.error, { fallback: CA.batchFailed })}
        onRetry={() => void batch.refetch()}
        retrying={batch.isFetching}
      />
    );
  }
  if (!batch.data) {
    return (
      <div className="grid gap-3" aria-busy>
        <span role="status" className="sr-only">
          Preparing the batch…
        </span>
        <Skeleton className="h-24 rounded-xl" />
        <Skeleton className="h-48 rounded-xl" />
      </div>
    );
  }
  const data = batch.data;
  const range = `${formatCalendarDate(data.from)} to ${formatCalendarDate(data.to)}`;
  if (data.rows.length === 0) {
    return (
      <ListEmpty
        icon={FileSpreadsheet}
        message="No completions in this batch."
        hint={`No certificate of ${data.course.title} was issued from ${range}.`}
      />
    );
  }
  const lacking = data.rows.filter((row) => row.missing.length > 0).length;
  return (
    <div className="grid gap-6" aria-busy={batch.isFetching || undefined}>
      <RegulatorMissingFields batch={data} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <dl className="grid grid-cols-2 gap-x-8 gap-y-1 text-sm sm:grid-cols-4" aria-label="Batch">
          <div>
            <dt className="text-muted-foreground">Completions</dt>
            <dd className="text-lg font-semibold text-navy-900 tabular-nums">{formatCount(data.rows.length)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Complete</dt>
            <dd className="text-lg font-semibold text-navy-900 tabular-nums">{formatCount(data.rows.length - lacking)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Lacking a field</dt>
            <dd className="text-lg font-semibold text-navy-900 tabular-nums">{formatCount(lacking)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Course code</dt>
            <dd className="text-lg font-semibold text-navy-900">{data.course.code ?? '—'}</dd>
          </div>
        </dl>
        <BatchDownloads query={query} />
      </div>
      <BatchRows batch={data} />
    </div>
  );
}

/**
 * /admin-dashboard/certificates/regulator-export: a course and a range of days (a batch); Preview
 * batch shows the completions the file will hold, those that lack a required field first with a
 * link to the learner's profile, then downloads them as CSV or XLSX. The form is checked here
 * without zod, so the screen stays free of it (decision 035); the server checks the same.
 */
export function RegulatorExportPage() {
  const courses = useCertificateCourses();
  const form = useCourseDayRange(CA);
  const [query, setQuery] = useState<TRegulatorBatchQuery | null>(null);

  function preview(event: FormEvent) {
    event.preventDefault();
    const range = form.check();
    if (range) setQuery(range);
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.certificates.regulatorExport)}>
      <Card className="mb-8">
        <CardContent className="p-4 sm:p-6">
          <form noValidate onSubmit={preview} className="grid gap-5" aria-label="Regulator batch">
            <CourseDayRangeFields
              idPrefix="batch"
              form={form}
              choices={courses}
              hints={{ from: 'The batch’s first day (UTC), included.', to: 'The batch’s last day (UTC), included.' }}
            />
            <div>
              <SubmitButton pending={false}>
                <Eye aria-hidden />
                Preview batch
              </SubmitButton>
            </div>
          </form>
        </CardContent>
      </Card>
      {query && <BatchPreview key={`${query.courseId}:${query.from}:${query.to}`} query={query} />}
    </AdminPage>
  );
}

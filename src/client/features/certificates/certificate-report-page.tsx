import { AlertCircle, AlertTriangle, Copy, ExternalLink, FileBadge, Hourglass, RotateCw, ShieldCheck, ShieldX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TLearnerCertificate } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useCourseCertificate, useMyCertificates } from '@/features/certificates/api/certificate-queries.ts';
import { CertificateStateBadge } from '@/features/certificates/certificate-state-badge.tsx';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { formatCalendarDate, formatDay } from '@/lib/format.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useCopyLink } from '@/features/certificates/use-copy-link.ts';
import { usePdfPolling, usePollLimit } from '@/features/certificates/use-pdf-polling.ts';

const C = MESSAGES.certificate;
export { CERTIFICATE_POLL_LIMIT_MS, CERTIFICATE_POLL_MS } from '@/features/certificates/use-pdf-polling.ts';

/** The state as the server says it, and, while the PDF is not there yet, that it is being prepared. */
function StatusBadge({ certificate }: { certificate: TLearnerCertificate }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <CertificateStateBadge state={certificate.state} />
      {!certificate.revoked && certificate.status === 'pending' && <Badge variant="warning">Being prepared</Badge>}
      {!certificate.revoked && certificate.status === 'failed' && <Badge variant="outline">Not available yet</Badge>}
    </span>
  );
}

/** What the learner can do with the certificate now: open it, wait for it, or know why not. */
function CertificateState({
  certificate,
  waiting,
  gaveUp,
  checking,
  onCheckAgain,
}: {
  certificate: TLearnerCertificate;
  waiting: boolean;
  gaveUp: boolean;
  checking: boolean;
  onCheckAgain: () => void;
}) {
  if (certificate.revoked) {
    return (
      <Alert variant="destructive">
        <ShieldX aria-hidden />
        <AlertTitle>{C.revoked}</AlertTitle>
        <AlertDescription>
          <p>
            It is no longer valid and cannot be opened. If you think this is a mistake, please{' '}
            <Link to={paths.contact} className="font-semibold underline underline-offset-2">
              contact the academy
            </Link>
            .
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  if (certificate.status === 'ready' && certificate.pdfUrl) {
    return (
      <Button asChild size="lg" className="w-full sm:w-auto">
        <a href={certificate.pdfUrl} target="_blank" rel="noopener">
          <ExternalLink aria-hidden />
          View Certificate
          <span className="sr-only"> (PDF, opens in a new tab)</span>
        </a>
      </Button>
    );
  }
  const checkAgain = (
    <Button variant="outline" size="sm" className="mt-3" onClick={onCheckAgain} disabled={checking}>
      <RotateCw className={checking ? 'animate-spin' : undefined} aria-hidden />
      Check again
    </Button>
  );
  if (certificate.status === 'pending' && waiting) {
    return (
      <Alert>
        <Hourglass aria-hidden />
        <AlertTitle>{C.preparing}</AlertTitle>
        <AlertDescription>
          <span className="mt-1 inline-flex items-center gap-2 text-muted-foreground">
            <Spinner size="sm" label="Checking" /> Checking every few seconds…
          </span>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="warning">
      <AlertTriangle aria-hidden />
      <AlertTitle>{certificate.status === 'pending' && gaveUp ? 'Your certificate is taking longer than usual.' : 'Your certificate could not be prepared yet.'}</AlertTitle>
      <AlertDescription>
        <p>The academy is preparing the PDF. Please check again in a few minutes.</p>
        {checkAgain}
      </AlertDescription>
    </Alert>
  );
}

/**
 * The certificate's own verification link (its secret code beside the number, as the QR code
 * carries it), for the learner to give to an employer: it shows their name, the course and the
 * date. Only the learner sees it here; the number alone shows others only their initials.
 */
function ShareLink({ certificate }: { certificate: TLearnerCertificate }) {
  const path = paths.verifyCertificate(certificate.number, certificate.verificationCode);
  const { copied, copy } = useCopyLink(path);

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border bg-navy-50/40 p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2 text-muted-foreground">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
        <span>
          Anyone you give your{' '}
          <Link to={path} className="font-semibold text-sea-700 underline underline-offset-2 hover:text-sea-800">
            verification link
          </Link>{' '}
          can confirm the certificate with your name, the course and the date, as the QR code printed on it does.
        </span>
      </p>
      <div className="flex shrink-0 items-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          <Copy aria-hidden />
          Copy link
        </Button>
        <span role="status" className={copied === 'failed' ? 'text-destructive' : 'text-success'}>
          {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy' : ''}
        </span>
      </div>
    </div>
  );
}

/** One course's certificate, read with certificates.forCourse and read again while its PDF is prepared. */
function CertificateDetails({ courseId, listed }: { courseId: string; listed: TLearnerCertificate | undefined }) {
  const polling = usePdfPolling();
  const query = useCourseCertificate(courseId, polling.interval);
  const certificate = query.data ?? (query.isError ? undefined : listed);
  const waiting = certificate?.status === 'pending' && !certificate.revoked && !polling.gaveUp;
  const [announcement, setAnnouncement] = useState('');
  const sawPending = useRef(false);

  // Said once the PDF a learner waited for is ready (the button appears without moving the focus).
  useEffect(() => {
    if (certificate?.status === 'pending') sawPending.current = true;
    else if (certificate?.status === 'ready' && sawPending.current) setAnnouncement('Your certificate is ready. View Certificate opens it.');
  }, [certificate?.status]);

  // Polling stops after a while; Check again starts another round.
  usePollLimit(waiting, polling);
  const checkAgain = () => polling.checkAgain(query.refetch);

  if (query.isError && !certificate) {
    if (httpStatusOf(query.error) === 404) {
      return (
        <Alert variant="destructive">
          <AlertCircle aria-hidden />
          <AlertTitle>{C.notFound}</AlertTitle>
          <AlertDescription>
            <p>A certificate is issued when you pass the course's test.</p>
            <Button asChild variant="outline" size="sm" className="mt-3">
              <Link to={paths.userCourses}>Go to Your Courses</Link>
            </Button>
          </AlertDescription>
        </Alert>
      );
    }
    return <LoadError title={C.loadFailed} message={errorMessage(query.error, { fallback: C.loadFailed })} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  if (!certificate) {
    return (
      <div aria-busy className="rounded-xl border border-border bg-card p-6 shadow-card">
        <span role="status" className="sr-only">
          Loading the certificate…
        </span>
        <Skeleton className="h-6 w-2/3" />
        <Skeleton className="mt-5 h-16 w-full" />
        <Skeleton className="mt-5 h-12 w-48" />
      </div>
    );
  }

  const headingId = `certificate-${certificate.id}`;
  return (
    <article aria-labelledby={headingId} className="overflow-hidden rounded-xl border border-border bg-card shadow-card">
      <div className="flex items-start gap-4 border-b border-border bg-navy-50/60 p-5 sm:p-6">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-white text-sea-700 ring-1 ring-sea-100">
          <FileBadge className="size-6" aria-hidden />
        </span>
        <div className="min-w-0">
          <StatusBadge certificate={certificate} />
          <h2 id={headingId} className="mt-1.5 text-lg leading-snug font-semibold break-words text-navy-900 sm:text-xl">
            {certificate.course.title}
          </h2>
        </div>
      </div>
      <div className="grid gap-6 p-5 sm:p-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Certificate number</dt>
            <dd className="mt-0.5 font-mono text-base font-semibold break-all text-navy-900">{certificate.number}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Course</dt>
            <dd className="mt-0.5 font-medium break-words text-navy-900">{certificate.course.title}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Issued on</dt>
            <dd className="mt-0.5 font-medium text-navy-900">{formatDay(certificate.issuedAt)}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Valid until</dt>
            <dd className="mt-0.5 font-medium text-navy-900">{certificate.validUntil ? formatCalendarDate(certificate.validUntil) : 'Does not expire'}</dd>
          </div>
        </dl>
        <p role="status" className="sr-only">
          {announcement}
        </p>
        <CertificateState certificate={certificate} waiting={waiting} gaveUp={polling.gaveUp} checking={query.isFetching} onCheckAgain={checkAgain} />
        {!certificate.revoked && <ShareLink certificate={certificate} />}
      </div>
    </article>
  );
}

/** /certificate-report: the learner's certificates, one course at a time (?courseId= chooses it). */
export function CertificateReportPage() {
  useDocumentTitle('Certificate Report');
  const [params, setParams] = useSearchParams();
  const mine = useMyCertificates();
  const list = mine.data ?? [];
  const wanted = params.get('courseId') ?? undefined;
  const selected = wanted ?? list[0]?.course.id;
  const listed = list.find((certificate) => certificate.course.id === selected);

  function choose(courseId: string) {
    setParams({ courseId }, { replace: true });
  }

  let body;
  if (mine.isPending) {
    body = (
      <div aria-busy className="grid gap-6">
        <span role="status" className="sr-only">
          Loading your certificates…
        </span>
        <Skeleton className="h-10 w-full max-w-md" />
        <Skeleton className="h-64 w-full rounded-xl" />
      </div>
    );
  } else if (mine.isError) {
    body = <LoadError title={C.reportFailed} message={errorMessage(mine.error, { fallback: C.reportFailed })} onRetry={() => void mine.refetch()} retrying={mine.isFetching} />;
  } else if (list.length === 0 && !wanted) {
    body = (
      <ListEmpty icon={FileBadge} message="You have no certificates yet." hint="Finish a course's training and pass its test: the certificate appears here.">
        <Button asChild className="mt-5">
          <Link to={paths.userCourses}>Go to Your Courses</Link>
        </Button>
      </ListEmpty>
    );
  } else {
    body = (
      <div className="grid gap-6">
        <FormField id="certificate-course" label="Completed course" className="max-w-md">
          {(controlProps) => (
            // The browser's own select: a phone shows its own picker, and the learner's screens
            // carry none of the popover code (decision 032).
            <NativeSelect {...controlProps} value={listed ? selected : ''} onChange={(event) => choose(event.target.value)}>
              {!listed && (
                <option value="" disabled>
                  Choose a course
                </option>
              )}
              {list.map((certificate) => (
                <option key={certificate.course.id} value={certificate.course.id}>
                  {certificate.course.title}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        {selected && <CertificateDetails key={selected} courseId={selected} listed={listed} />}
      </div>
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
      <header>
        <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">Reports</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Certificate Report</h1>
        <p className="mt-2 max-w-2xl text-muted-foreground">Choose a completed course to see its certificate and open the PDF.</p>
      </header>
      <div className="mt-8">{body}</div>
    </div>
  );
}

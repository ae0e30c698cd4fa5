import { Ban, Check, Clock, Copy, Download, FileBadge, Hourglass, RefreshCw, Repeat, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TLearnerCertificate } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useMyCertificates } from '@/features/certificates/api/certificate-queries.ts';
import { usePdfPolling, usePollLimit } from '@/features/certificates/use-pdf-polling.ts';
import { CertificateStateBadge } from '@/features/certificates/certificate-state-badge.tsx';
import { ReminderSwitch } from '@/features/certificates/reminder-switch.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCalendarDate, formatDay } from '@/lib/format.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { cn } from '@/lib/utils.ts';
import { useCopyLink } from '@/features/certificates/use-copy-link.ts';

const C = MESSAGES.certificate;

/**
 * Navigation state that asks the catalogue to send the learner's enrolment request for a course on
 * arrival (as it does for a visitor back from the login): only this app can set it, so no link
 * elsewhere can make a learner request a course.
 */
const enrolOnArrival = (courseId: string) => ({ enrolIn: courseId });

function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-navy-900">{children}</dd>
    </div>
  );
}

/** The verification link to give an employer (its number and secret code, as the QR code carries them). */
function ShareLink({ certificate }: { certificate: TLearnerCertificate }) {
  const path = paths.verifyCertificate(certificate.number, certificate.verificationCode);
  const { copied, copy } = useCopyLink(path);

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Button type="button" variant="outline" size="sm" onClick={copy} aria-describedby={`share-${certificate.id}`}>
        {copied === 'yes' ? <Check aria-hidden /> : <Copy aria-hidden />}
        Copy verification link
      </Button>
      <Link to={path} className="text-sm font-medium text-sea-700 underline underline-offset-2 hover:text-sea-800">
        Open it
      </Link>
      <span id={`share-${certificate.id}`} className="sr-only">
        Anyone with this link sees your name, the course, the dates and whether the certificate is valid.
      </span>
      <span role="status" className={cn('text-sm', copied === 'failed' ? 'text-destructive' : 'text-success')}>
        {copied === 'yes' ? 'Link copied' : copied === 'failed' ? 'Could not copy the link' : ''}
      </span>
    </div>
  );
}

/** The PDF when it is ready; while the worker prepares it, a note that the page checks again. */
function DownloadAction({ certificate, waiting, onCheckAgain, checking }: { certificate: TLearnerCertificate; waiting: boolean; onCheckAgain: () => void; checking: boolean }) {
  if (certificate.status === 'ready' && certificate.pdfUrl) {
    return (
      <Button asChild size="sm">
        <a href={certificate.pdfUrl} target="_blank" rel="noopener">
          <Download aria-hidden />
          Download PDF
          <span className="sr-only"> of {certificate.number} (opens in a new tab)</span>
        </a>
      </Button>
    );
  }
  if (certificate.status === 'pending' && waiting) {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner size="sm" label="Checking" />
        The PDF is being prepared…
      </span>
    );
  }
  return (
    <div className="flex w-full items-start gap-2 text-sm text-muted-foreground">
      <Hourglass className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
      <div>
        <p>{certificate.status === 'failed' ? 'The PDF could not be prepared yet.' : 'The PDF is taking longer than usual.'} Please check again in a few minutes.</p>
        <Button type="button" variant="outline" size="sm" className="mt-2" onClick={onCheckAgain} disabled={checking}>
          <RotateCw className={checking ? 'animate-spin' : undefined} aria-hidden />
          Check again
        </Button>
      </div>
    </div>
  );
}

/** "Enrol in refresher" on an expiring or expired certificate whose course has one; said once asked. */
function RefresherAction({ certificate }: { certificate: TLearnerCertificate }) {
  const refresher = certificate.refresher;
  if (!refresher || (certificate.state !== 'expiring' && certificate.state !== 'expired')) return null;
  if (refresher.enrolled) {
    return (
      <p className="inline-flex items-center gap-2 text-sm font-medium text-navy-800">
        <Clock className="size-4 text-sea-700" aria-hidden />
        Refresher requested: {refresher.title}
      </p>
    );
  }
  return (
    <Button asChild size="sm" variant={certificate.state === 'expired' ? 'default' : 'secondary'}>
      <Link to={paths.courses} state={enrolOnArrival(refresher.courseId)}>
        <RefreshCw aria-hidden />
        Enrol in refresher
        <span className="sr-only">: {refresher.title}</span>
      </Link>
    </Button>
  );
}

/** What the state means for the holder, under the heading, when it needs saying. */
function StateNote({ certificate }: { certificate: TLearnerCertificate }) {
  if (certificate.state === 'revoked') {
    return (
      <p className="flex items-start gap-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-destructive">
        <Ban className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>
          {C.revoked}
          {certificate.revokeReason ? ` Reason: ${certificate.revokeReason}` : ''}
        </span>
      </p>
    );
  }
  if (certificate.state === 'superseded' && certificate.supersededBy) {
    return (
      <p className="flex items-start gap-2 rounded-lg bg-navy-50 px-3 py-2 text-sm text-navy-900">
        <Repeat className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
        <span>
          Superseded by <span className="font-mono font-semibold">{certificate.supersededBy.number}</span> ({certificate.supersededBy.courseTitle}).
        </span>
      </p>
    );
  }
  if (certificate.state === 'expiring' && certificate.validUntil) {
    return (
      <p className="flex items-start gap-2 rounded-lg bg-yellow-50 px-3 py-2 text-sm text-warning">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>Expires on {formatCalendarDate(certificate.validUntil)}.{certificate.refresher ? ' Its refresher course renews it.' : ''}</span>
      </p>
    );
  }
  if (certificate.state === 'expired' && certificate.validUntil) {
    return (
      <p className="flex items-start gap-2 rounded-lg bg-muted px-3 py-2 text-sm text-navy-900">
        <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>Expired after {formatCalendarDate(certificate.validUntil)}.{certificate.refresher ? ' Its refresher course renews it.' : ''}</span>
      </p>
    );
  }
  return null;
}

function CertificateCard({ certificate, waiting, onCheckAgain, checking }: { certificate: TLearnerCertificate; waiting: boolean; onCheckAgain: () => void; checking: boolean }) {
  const headingId = `my-certificate-${certificate.id}`;
  const live = certificate.state !== 'revoked';
  return (
    <article aria-labelledby={headingId} data-testid="certificate-card" className="flex w-full flex-col overflow-hidden rounded-xl border border-border bg-card shadow-card">
      <div className="flex items-start gap-3 border-b border-border bg-navy-50/60 p-4 sm:p-5">
        <span className="hidden size-10 shrink-0 items-center justify-center rounded-full bg-white text-sea-700 ring-1 ring-sea-100 sm:flex">
          <FileBadge className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <CertificateStateBadge state={certificate.state} />
            {certificate.course.code && <span className="font-mono text-xs font-semibold tracking-wide text-navy-700">{certificate.course.code}</span>}
          </div>
          <h2 id={headingId} className="mt-1.5 text-lg leading-snug font-semibold break-words text-navy-900">
            {certificate.course.title}
          </h2>
        </div>
      </div>
      <div className="grid flex-1 content-start gap-4 p-4 sm:p-5">
        <StateNote certificate={certificate} />
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
          <Detail label="Certificate number" className="col-span-2">
            <span className="font-mono font-semibold break-all">{certificate.number}</span>
            {certificate.version > 1 && <span className="ml-2 text-sm font-normal text-muted-foreground">version {certificate.version}</span>}
          </Detail>
          <Detail label="Issued on">{formatDay(certificate.issuedAt)}</Detail>
          <Detail label="Valid until">{certificate.validUntil ? formatCalendarDate(certificate.validUntil) : 'Does not expire'}</Detail>
        </dl>
      </div>
      {live && (
        <div className="grid gap-3 border-t border-border p-4 sm:p-5">
          <div className="flex flex-wrap items-center gap-2">
            <DownloadAction certificate={certificate} waiting={waiting} onCheckAgain={onCheckAgain} checking={checking} />
            <RefresherAction certificate={certificate} />
          </div>
          <ShareLink certificate={certificate} />
        </div>
      )}
    </article>
  );
}

function CertificatesSkeleton() {
  return (
    <div aria-busy className="grid gap-5 lg:grid-cols-2">
      <span role="status" className="sr-only">
        Loading your certificates…
      </span>
      {[0, 1].map((index) => (
        <div key={index} aria-hidden className="overflow-hidden rounded-xl border border-border bg-card shadow-card">
          <div className="grid gap-2 border-b border-border p-5">
            <Skeleton className="h-5 w-20 rounded-full" />
            <Skeleton className="h-6 w-3/4" />
          </div>
          <div className="grid grid-cols-2 gap-4 p-5">
            <Skeleton className="col-span-2 h-10" />
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
          <div className="flex gap-2 border-t border-border p-5">
            <Skeleton className="h-8 w-36" />
            <Skeleton className="h-8 w-44" />
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * /my-certificates: every certificate of the learner, with its state as the server says it, its
 * dates, the PDF, the link to share and, when it runs out, its refresher; and the choice of
 * e-mails before a certificate expires.
 */
export function MyCertificatesPage() {
  useDocumentTitle('My certificates');
  const polling = usePdfPolling();
  const mine = useMyCertificates(polling.interval);
  const list = mine.data ?? [];
  const preparing = list.some((certificate) => certificate.status === 'pending' && !certificate.revoked);
  const waiting = preparing && !polling.gaveUp;
  // Reading again stops after a while; Check again starts another round.
  usePollLimit(waiting, polling);
  const checkAgain = () => polling.checkAgain(mine.refetch);

  let body;
  if (mine.isPending) body = <CertificatesSkeleton />;
  else if (mine.isError) {
    body = <LoadError title={C.reportFailed} message={errorMessage(mine.error, { fallback: C.reportFailed })} onRetry={() => void mine.refetch()} retrying={mine.isFetching} />;
  } else if (list.length === 0) {
    body = (
      <ListEmpty icon={FileBadge} message="You have no certificates yet." hint="Finish a course's training and pass its test: the certificate appears here.">
        <Button asChild className="mt-5">
          <Link to={paths.userCourses}>Go to Your Courses</Link>
        </Button>
      </ListEmpty>
    );
  } else {
    body = (
      <ul className="grid gap-5 lg:grid-cols-2" aria-label="Your certificates">
        {list.map((certificate) => (
          <li key={certificate.id} className="flex">
            <CertificateCard certificate={certificate} waiting={waiting} onCheckAgain={checkAgain} checking={mine.isFetching} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 px-4 py-10 sm:px-6">
      <header>
        <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">Certificates</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">My certificates</h1>
        <p className="mt-2 max-w-2xl text-muted-foreground">Every certificate the academy issued you: whether it is valid, until when, the PDF and the link to show an employer.</p>
      </header>
      <ReminderSwitch />
      {body}
    </div>
  );
}

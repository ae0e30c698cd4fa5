import { AlertTriangle, CheckCircle2, Download, FileArchive, Loader2, ShieldCheck, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { TErasureResult } from '../../../shared/schemas/personal-data.ts';
import { paths } from '@/config/paths.ts';
import { Alert } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { downloadWithSession } from '@/lib/download-with-session.ts';
import { formatCalendarDate } from '@/lib/format.ts';
import { trpc } from '@/lib/trpc.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const ARCHIVE_URL = '/api/me/data.zip';

/** 1 234 567 bytes as "1.2 MB". */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

type TDownloadState = { step: 'idle' } | { step: 'downloading'; received: number } | { step: 'saved'; fileName: string; bytes: number } | { step: 'failed'; message: string };

function DownloadSection() {
  const [state, setState] = useState<TDownloadState>({ step: 'idle' });
  const received = useRef(0);

  async function start() {
    received.current = 0;
    setState({ step: 'downloading', received: 0 });
    const outcome = await downloadWithSession(ARCHIVE_URL, 'my-data.zip', {
      onProgress: (bytes) => {
        received.current = bytes;
        setState({ step: 'downloading', received: bytes });
      },
    });
    if (outcome.outcome === 'saved') setState({ step: 'saved', fileName: outcome.fileName, bytes: received.current });
    else if (outcome.outcome === 'unauthorized') setState({ step: 'failed', message: 'Your session has ended. Sign in again, then download your data.' });
    else setState({ step: 'failed', message: outcome.message ?? 'The download was interrupted. Check your connection and try again: nothing is lost.' });
  }

  const busy = state.step === 'downloading';
  return (
    <section aria-labelledby="download-heading" className="grid grid-cols-[minmax(0,1fr)] gap-4 rounded-xl border border-border bg-card p-5 shadow-card sm:p-6">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-50 text-sea-700">
          <FileArchive className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id="download-heading" className="text-lg font-semibold text-navy-900">
            Download your data
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            One ZIP file with everything the portal holds about you: your account and profile, the photograph, ID document and signature you uploaded,
            your enrolments, what you watched, your test attempts with the answers you gave, your certificates with their PDFs, your reminder choice,
            when you accepted the notice on your documents, and the academy’s records of your own requests. A README inside says what each file is.
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" onClick={() => void start()} disabled={busy}>
          {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
          {busy ? 'Downloading…' : 'Download your data'}
        </Button>
        <p className="text-xs text-muted-foreground">It can be large if you have many certificates: on a ship’s link, keep this page open until it is saved.</p>
      </div>
      <div aria-live="polite" className="grid gap-2">
        {state.step === 'downloading' && (
          <>
            <Progress value={null} aria-label="Downloading your data" />
            <p className="text-sm text-navy-900" data-testid="download-received">
              {state.received === 0 ? 'Preparing your archive…' : `Received ${formatBytes(state.received)}…`}
            </p>
          </>
        )}
        {state.step === 'saved' && (
          <Alert variant="success">
            <CheckCircle2 aria-hidden />
            <p>
              Saved as <span className="font-mono font-semibold">{state.fileName}</span>
              {state.bytes > 0 ? ` (${formatBytes(state.bytes)})` : ''}. It holds your identity documents: keep it somewhere safe.
            </p>
          </Alert>
        )}
        {state.step === 'failed' && (
          <Alert variant="destructive">
            <AlertTriangle aria-hidden />
            <p>{state.message}</p>
          </Alert>
        )}
      </div>
    </section>
  );
}

function ErasureOutcome({ result }: { result: TErasureResult }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  // The session is over at the server: the browser forgets it (and anything kept for offline study) as the page is left.
  useEffect(
    () => () => {
      void import('@/lib/session/log-out.ts').then(({ logOut }) => logOut());
    },
    [],
  );
  async function done() {
    const { logOut } = await import('@/lib/session/log-out.ts');
    await logOut();
    window.location.replace(paths.home);
  }
  const kept = result.kept.certificates;
  return (
    <section aria-labelledby="erasure-done-heading" className="grid gap-4 rounded-xl border border-green-200 bg-card p-5 shadow-card sm:p-6" data-testid="erasure-outcome">
      <h2 id="erasure-done-heading" ref={headingRef} tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-navy-900 outline-none">
        <CheckCircle2 className="size-5 shrink-0 text-success" aria-hidden />
        {result.message}
      </h2>
      <p className="text-sm text-navy-900">
        You can no longer sign in, and every session of this account has ended. Your e-mail address is free: you may register again with it at any time.
      </p>
      <div className="grid gap-1 text-sm">
        <h3 className="font-semibold text-navy-900">Removed</h3>
        <p className="text-muted-foreground">
          Your profile{result.removed.documents > 0 ? ` and the ${result.removed.documents} documents you uploaded` : ''}, your name, e-mail and mobile
          number, {result.removed.enrolments} enrolments, {result.removed.testAttempts} test attempts and {result.removed.watchedParts} parts’ watching not
          behind a certificate, your offline downloads and any e-mail waiting to be sent to you.
        </p>
      </div>
      <div className="grid gap-1 text-sm">
        <h3 className="font-semibold text-navy-900">Kept</h3>
        {kept.length === 0 ? (
          <p className="text-muted-foreground">Nothing: you held no certificates. Only a closed, nameless account record and the academy’s audit entries remain.</p>
        ) : (
          <>
            <p className="text-muted-foreground">
              {result.retainUntil ? `Until ${formatCalendarDate(result.retainUntil)}, the retention period the academy keeps training records for, then they may be removed: ` : ''}
              {kept.length === 1 ? 'your certificate' : `your ${kept.length} certificates`} with the name and numbers printed on them, and the records behind
              them ({result.kept.testAttempts} test attempts, {result.kept.watchedParts} parts’ watching, {result.kept.enrolments} enrolments).
            </p>
            <ul className="mt-1 grid gap-1">
              {kept.map((certificate) => (
                <li key={certificate.number} className="break-words text-navy-900">
                  <span className="font-mono font-semibold">{certificate.number}</span> · {certificate.courseTitle}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div>
        <Button type="button" onClick={() => void done()}>
          Done
        </Button>
      </div>
    </section>
  );
}

function ErasureSection() {
  const terms = trpc.personalData.retention.useQuery(undefined, { staleTime: 0 });
  const erase = trpc.personalData.erase.useMutation();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const passwordId = useId();

  if (erase.data) return <ErasureOutcome result={erase.data} />;

  function submit(event: FormEvent) {
    event.preventDefault();
    setFieldError(undefined);
    if (!password) {
      setFieldError('Enter your password to confirm.');
      return;
    }
    erase.mutate(
      { password },
      {
        onError: (error) => {
          const fields = (error.data as { fields?: Record<string, string> } | undefined)?.fields;
          if (fields?.password) setFieldError(fields.password);
        },
      },
    );
  }

  const failure = erase.error && !fieldError ? errorMessage(erase.error, { fallback: 'Your account could not be closed. Nothing was changed; try again.' }) : undefined;
  return (
    <section aria-labelledby="erase-heading" className="grid grid-cols-[minmax(0,1fr)] gap-4 rounded-xl border border-red-200 bg-card p-5 shadow-card sm:p-6">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-destructive">
          <Trash2 className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id="erase-heading" className="text-lg font-semibold text-navy-900">
            Close my account and erase my data
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Your account is closed at once: you cannot sign in again and every session ends. Your profile, uploaded documents, name, e-mail and mobile
            number, and your enrolments, test attempts and watching for courses without a certificate are removed. This cannot be undone; download your
            data first if you want a copy.
          </p>
        </div>
      </div>

      <div className="grid gap-2 rounded-lg bg-navy-50 p-4 text-sm text-navy-900">
        <h3 className="flex items-center gap-2 font-semibold">
          <ShieldCheck className="size-4 text-sea-700" aria-hidden />
          What the academy must keep, and why
        </h3>
        {terms.isPending ? (
          <div aria-busy className="grid gap-2">
            <span role="status" className="sr-only">
              Loading what would be kept…
            </span>
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        ) : terms.isError ? (
          <p className="text-destructive">
            {errorMessage(terms.error, { fallback: 'What would be kept could not be loaded.' })}{' '}
            <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={() => void terms.refetch()}>
              Try again
            </Button>
          </p>
        ) : terms.data.certificates.length === 0 ? (
          <p>You hold no certificates, so nothing of yours is kept beyond a closed, nameless account record and the academy’s audit entries.</p>
        ) : (
          <>
            <p>
              Certificates the academy issued stay verifiable by employers and flag-state inspectors, so each certificate, the name and numbers printed on
              it, and the training and test records behind it are kept for {terms.data.retentionYears} years from today, then may be removed:
            </p>
            <ul className="grid gap-1">
              {terms.data.certificates.map((certificate) => (
                <li key={certificate.number} className="break-words">
                  <span className="font-mono font-semibold">{certificate.number}</span> · {certificate.courseTitle}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      <form onSubmit={submit} noValidate className="grid gap-4 sm:max-w-md">
        <FormField id={passwordId} label="Your password" error={fieldError} hint="To confirm it is you.">
          {(control) => (
            <Input {...control} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} disabled={erase.isPending} />
          )}
        </FormField>
        {failure && (
          <Alert variant="destructive">
            <AlertTriangle aria-hidden />
            <p>{failure}</p>
          </Alert>
        )}
        <div>
          {/* The words in a span of their own that wraps: the button's own nowrap would carry them past the card on a phone. */}
          <Button type="submit" variant="destructive" disabled={erase.isPending} className="h-auto min-h-10 py-2">
            {erase.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <Trash2 aria-hidden />}
            <span className="text-left whitespace-normal">{erase.isPending ? 'Closing your account…' : 'Close my account and erase my data'}</span>
          </Button>
        </div>
      </form>
    </section>
  );
}

/** /your-data: the learner's copy of their data, and the closing of their account with its erasure. */
export function YourDataPage() {
  useDocumentTitle('Your data');
  return (
    <div className="flex-1 bg-muted/60">
      <div className="mx-auto grid w-full max-w-3xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <header>
          <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">
            <Link to={paths.profile} className="underline-offset-2 hover:underline">
              Profile
            </Link>
          </p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Your data</h1>
          <p className="mt-2 text-muted-foreground">
            Under India’s Digital Personal Data Protection Act, 2023, you may have a copy of the personal data the academy holds about you, and ask for it
            to be erased.
          </p>
        </header>
        <DownloadSection />
        <ErasureSection />
      </div>
    </div>
  );
}

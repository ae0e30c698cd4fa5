import { AlertCircle, Search, SearchX, ShieldCheck, ShieldX } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import { type TCertificateVerification, ZCertificateNumber } from '../../../shared/schemas/certificate.ts';
import { paths } from '@/app/paths.ts';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCertificateVerification } from '@/features/certificates/api/certificate-queries.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { formatDay } from '@/lib/format.ts';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { usePageMeta } from '@/lib/use-page-meta.ts';
import { cn } from '@/lib/utils.ts';

const C = MESSAGES.certificate;

/**
 * The number in the address after /verify/: either its own path (/verify/MTA/2026/000123, as the
 * QR code and the links write it) or one encoded segment (/verify/MTA%2F2026%2F000123).
 */
export function numberFromPath(splat: string | undefined): string {
  const trimmed = (splat ?? '').replace(/\/+$/, '');
  try {
    return decodeURIComponent(trimmed);
  } catch {
    return trimmed;
  }
}

function VerificationCard({ verification }: { verification: TCertificateVerification }) {
  const site = useSiteConfig();
  const valid = verification.state === 'valid';
  const Icon = valid ? ShieldCheck : ShieldX;
  return (
    <section
      aria-labelledby="verification-heading"
      className={cn('overflow-hidden rounded-xl border-2 bg-card shadow-card', valid ? 'border-green-300' : 'border-red-300')}
    >
      <div className={cn('flex items-start gap-4 p-5 sm:p-6', valid ? 'bg-green-50' : 'bg-red-50')}>
        <span
          className={cn(
            'flex size-12 shrink-0 items-center justify-center rounded-full bg-white ring-1',
            valid ? 'text-success ring-green-200' : 'text-destructive ring-red-200',
          )}
        >
          <Icon className="size-7" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id="verification-heading" className={cn('text-xl font-bold', valid ? 'text-success' : 'text-destructive')}>
            {valid ? 'Valid certificate' : 'Revoked certificate'}
          </h2>
          <p className="mt-1 text-sm text-navy-900">
            {valid ? `Issued by ${site.name} to the person named below.` : `${C.revoked} It is no longer valid.`}
          </p>
        </div>
      </div>
      <dl className="grid gap-4 p-5 sm:grid-cols-2 sm:p-6">
        <div>
          <dt className="text-xs font-medium text-muted-foreground">Certificate number</dt>
          <dd className="mt-0.5 font-mono text-base font-semibold break-all text-navy-900">{verification.number}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-muted-foreground">Holder</dt>
          <dd className="mt-0.5 text-base font-semibold break-words text-navy-900">{verification.holderName}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-muted-foreground">Course</dt>
          <dd className="mt-0.5 font-medium break-words text-navy-900">{verification.courseTitle}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-muted-foreground">Issued on</dt>
          <dd className="mt-0.5 font-medium text-navy-900">{formatDay(verification.issuedAt)}</dd>
        </div>
      </dl>
    </section>
  );
}

/** What the server says about the number in the address. */
function VerificationResult({ number }: { number: string }) {
  const verification = useCertificateVerification(number);
  if (verification.isPending) {
    return (
      <div aria-busy className="rounded-xl border border-border bg-card p-6 shadow-card">
        <span role="status" className="sr-only">
          Checking the certificate…
        </span>
        <Skeleton className="h-7 w-1/2" />
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {[0, 1, 2, 3].map((line) => (
            <Skeleton key={line} className="h-10" />
          ))}
        </div>
      </div>
    );
  }
  if (verification.isError) {
    if (httpStatusOf(verification.error) === 404) {
      return (
        <Alert variant="warning">
          <SearchX aria-hidden />
          <AlertTitle>No certificate found for {number}</AlertTitle>
          <AlertDescription>
            <p>{C.unknownNumber}</p>
          </AlertDescription>
        </Alert>
      );
    }
    return (
      <LoadError
        title={C.loadFailed}
        message={errorMessage(verification.error, { fallback: C.loadFailed })}
        onRetry={() => void verification.refetch()}
        retrying={verification.isFetching}
      />
    );
  }
  return <VerificationCard verification={verification.data} />;
}

/** /verify and /verify/{number}: anyone checks a certificate number (public, no login). */
export function VerifyPage() {
  const site = useSiteConfig();
  const navigate = useNavigate();
  const fromPath = numberFromPath(useParams()['*']);
  const parsedPath = fromPath ? ZCertificateNumber.safeParse(fromPath) : undefined;
  const number = parsedPath?.success ? parsedPath.data : undefined;
  const pathError = parsedPath && !parsedPath.success ? parsedPath.error.issues[0]?.message : undefined;

  const [typed, setTyped] = useState(number ?? fromPath);
  const [typedError, setTypedError] = useState<string>();
  // A new address (back, forward, a link) shows its number in the field.
  const [shownPath, setShownPath] = useState(fromPath);
  if (shownPath !== fromPath) {
    setShownPath(fromPath);
    setTyped(number ?? fromPath);
    setTypedError(undefined);
  }
  const error = typedError ?? pathError;

  useDocumentTitle(number ? `Certificate ${number}` : 'Verify a certificate');
  usePageMeta({
    description: `Check a ${site.name} certificate: enter its number, or scan the QR code printed on it, to see whether it is valid.`,
    noIndex: Boolean(fromPath),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = ZCertificateNumber.safeParse(typed);
    if (!parsed.success) {
      setTypedError(parsed.error.issues[0]?.message ?? C.numberFormat);
      return;
    }
    setTypedError(undefined);
    setTyped(parsed.data);
    navigate(paths.verifyCertificate(parsed.data));
  }

  return (
    <>
      <PageHero eyebrow="Certificates" title="Verify a certificate">
        Employers and port officers can confirm a certificate issued by {site.name}: type its number, or scan the QR code printed on it.
      </PageHero>

      <div className="mx-auto grid w-full max-w-2xl gap-8 px-4 py-12 sm:px-6 sm:py-16">
        <form noValidate onSubmit={onSubmit} role="search" aria-label="Check a certificate" className="rounded-xl border border-border bg-card p-5 shadow-card sm:p-6">
          <FormField id="certificate-number" label="Certificate number" error={error} hint="As printed on the certificate, for example MTA/2026/000123.">
            {(controlProps) => (
              <div className="flex flex-col gap-3 sm:flex-row">
                <Input
                  {...controlProps}
                  name="number"
                  value={typed}
                  onChange={(event) => setTyped(event.target.value)}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  placeholder="MTA/2026/000123"
                  className="font-mono sm:flex-1"
                />
                <Button type="submit" className="sm:w-auto">
                  <Search aria-hidden />
                  Verify
                </Button>
              </div>
            )}
          </FormField>
        </form>

        <div aria-live="polite">
          {number ? (
            <VerificationResult number={number} />
          ) : (
            !error && (
              <p className="flex items-start gap-2 text-sm text-muted-foreground">
                <AlertCircle className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
                The check shows whether the certificate is valid or revoked, the holder's name, the course and the date of issue.
              </p>
            )
          )}
        </div>
      </div>
    </>
  );
}

import { AlertCircle, type LucideIcon, Search, SearchX, ShieldAlert, ShieldCheck, ShieldQuestion, ShieldX, UserCheck } from 'lucide-react';
// The holder's name in real letters whatever its script; each file declares its unicode-range, so
// the browser fetches only the subsets a name uses. Here only: the verify page's own chunk.
import '@fontsource/noto-serif/700.css';
import '@fontsource/noto-serif-devanagari/700.css';
import { type FormEvent, type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import {
  type TCertificateState,
  type TCertificateVerification,
  ZCertificateNumber,
  ZVerificationCode,
  ZVerifyByHolderRequest,
} from '../../../shared/schemas/certificate.ts';
import { paths } from '@/config/paths.ts';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useCertificateVerification, useVerifyByHolder } from '@/features/certificates/api/certificate-queries.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { formatCalendarDate, formatDay } from '@/lib/format.ts';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { usePageMeta } from '@/lib/use-page-meta.ts';
import { cn } from '@/lib/utils.ts';

const C = MESSAGES.certificate;

/** The holder's name: Noto Serif for Latin, Greek and Cyrillic, its Devanagari sibling for Hindi, Marathi and the like. */
const HOLDER_NAME_FONTS = "'Noto Serif', 'Noto Serif Devanagari', Georgia, serif";

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

type TStateVerification = Exclude<TCertificateVerification, { detail: 'superseded-version' }>;

/** Each state's verdict, colours and icon; the state is the server's (the page never decides it). */
const VERDICTS: Record<TCertificateState, { title: string; tone: 'good' | 'warn' | 'bad' | 'neutral'; icon: LucideIcon }> = {
  valid: { title: 'Valid certificate', tone: 'good', icon: ShieldCheck },
  expiring: { title: 'Valid certificate, expiring soon', tone: 'warn', icon: ShieldAlert },
  expired: { title: 'Expired certificate', tone: 'bad', icon: ShieldX },
  revoked: { title: 'Revoked certificate', tone: 'bad', icon: ShieldX },
  superseded: { title: 'Superseded certificate', tone: 'neutral', icon: ShieldQuestion },
};

const TONES = {
  good: { border: 'border-green-300', head: 'bg-green-50', ring: 'text-success ring-green-200', title: 'text-success' },
  warn: { border: 'border-yellow-300', head: 'bg-yellow-50', ring: 'text-warning ring-yellow-200', title: 'text-warning' },
  bad: { border: 'border-red-300', head: 'bg-red-50', ring: 'text-destructive ring-red-200', title: 'text-destructive' },
  neutral: { border: 'border-navy-200', head: 'bg-navy-50', ring: 'text-navy-700 ring-navy-200', title: 'text-navy-900' },
} as const;

/** The line between the verdict and the holder's name: what the state means and to whom it was issued. */
function verdictLine(verification: TStateVerification, siteName: string): string {
  const until = verification.validUntil ? formatCalendarDate(verification.validUntil) : undefined;
  switch (verification.state) {
    case 'valid':
      return `Issued by ${siteName} to`;
    case 'expiring':
      return `Valid until ${until ?? 'its last valid day'}, then it expires. Issued by ${siteName} to`;
    case 'expired':
      return `It was valid until ${until ?? 'its last valid day'} and is no longer valid. It was issued to`;
    case 'revoked':
      return `${C.revoked} It is no longer valid. It was issued to`;
    case 'superseded':
      return `It was renewed${verification.detail === 'full' && verification.supersededBy ? ` by ${verification.supersededBy.number}` : ''} and is no longer the current certificate. It was issued to`;
  }
}

function Detail({ label, children, wide, mono }: { label: string; children: ReactNode; wide?: boolean; mono?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={cn('mt-0.5 break-words text-navy-900', mono ? 'font-mono text-base font-semibold break-all' : 'font-medium')}>{children}</dd>
    </div>
  );
}

/**
 * The verdict first and the holder's name right under it, in the card's coloured head: on a phone
 * opened from the QR code, both are on the first screen. The details follow when the check gave them.
 */
function VerificationCard({ verification, headingRef }: { verification: TStateVerification; headingRef?: Ref<HTMLHeadingElement> }) {
  const site = useSiteConfig();
  const verdict = VERDICTS[verification.state];
  const tone = TONES[verdict.tone];
  const full = verification.detail === 'full';
  return (
    <section aria-labelledby="verification-heading" data-state={verification.state} className={cn('overflow-hidden rounded-xl border-2 bg-card shadow-card', tone.border)}>
      <div className={cn('flex items-start gap-3 p-4 sm:gap-4 sm:p-6', tone.head)}>
        <span className={cn('flex size-11 shrink-0 items-center justify-center rounded-full bg-white ring-1 sm:size-12', tone.ring)}>
          <verdict.icon className="size-6 sm:size-7" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id="verification-heading" ref={headingRef} tabIndex={-1} className={cn('text-xl font-bold outline-none', tone.title)}>
            {verdict.title}
          </h2>
          <p className="mt-0.5 text-sm text-navy-900">{verdictLine(verification, site.name)}</p>
          <p className="mt-1 text-2xl leading-tight font-bold break-words text-navy-900" style={{ fontFamily: HOLDER_NAME_FONTS }} data-testid="holder-name">
            {full ? (
              verification.holderName
            ) : (
              <>
                {verification.maskedName}
                <span className="sr-only"> (initials only)</span>
              </>
            )}
          </p>
        </div>
      </div>
      <dl className="grid gap-4 p-4 sm:grid-cols-2 sm:p-6">
        {full && (
          <Detail label="Course" wide>
            {verification.courseTitle}
          </Detail>
        )}
        <Detail label="Certificate number" mono>
          {verification.number}
          {full && verification.version > 1 && <span className="ml-2 font-sans text-sm font-normal text-muted-foreground">version {verification.version}</span>}
        </Detail>
        <Detail label="Issued on">{formatDay(verification.issuedAt)}</Detail>
        <Detail label="Valid until">{verification.validUntil ? formatCalendarDate(verification.validUntil) : 'Does not expire'}</Detail>
        {full && (
          <>
            {verification.courseCode && <Detail label="Course code">{verification.courseCode}</Detail>}
            {verification.approvalNumber && <Detail label="Approval number">{verification.approvalNumber}</Detail>}
            {verification.supersededBy && (
              <Detail label="Renewed by">
                <Link to={paths.verifyCertificate(verification.supersededBy.number)} className="font-mono font-semibold text-sea-700 underline underline-offset-2">
                  {verification.supersededBy.number}
                </Link>{' '}
                <span className="text-sm text-muted-foreground">({verification.supersededBy.courseTitle})</span>
              </Detail>
            )}
            {verification.renews && (
              <Detail label="Renews">
                <span className="font-mono">{verification.renews.number}</span>{' '}
                <span className="text-sm text-muted-foreground">({verification.renews.courseTitle})</span>
              </Detail>
            )}
          </>
        )}
      </dl>
    </section>
  );
}

/**
 * The code (or the PDF) of an earlier version: a re-issue replaced it. Said plainly as not the
 * current certificate, with a check of the number for the one that is.
 */
function SupersededVersionCard({ verification }: { verification: Extract<TCertificateVerification, { detail: 'superseded-version' }> }) {
  return (
    <section aria-labelledby="verification-heading" data-state="superseded-version" className="overflow-hidden rounded-xl border-2 border-red-300 bg-card shadow-card">
      <div className="flex items-start gap-3 bg-red-50 p-4 sm:gap-4 sm:p-6">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white text-destructive ring-1 ring-red-200 sm:size-12">
          <ShieldX className="size-6 sm:size-7" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id="verification-heading" tabIndex={-1} className="text-xl font-bold text-destructive outline-none">
            Not the current version
          </h2>
          <p className="mt-1 text-navy-900">{C.supersededVersion(verification.currentVersion)}</p>
        </div>
      </div>
      <dl className="grid gap-4 p-4 sm:grid-cols-2 sm:p-6">
        <Detail label="Certificate number" mono>
          {verification.number}
        </Detail>
        <Detail label="This document">
          Version {verification.version} (current: version {verification.currentVersion})
        </Detail>
        <div className="sm:col-span-2">
          <Button asChild variant="outline" size="sm">
            <Link to={paths.verifyCertificate(verification.number)}>Check the current certificate</Link>
          </Button>
        </div>
      </dl>
    </section>
  );
}

/**
 * Whoever knows only the number adds the holder's date of birth or INDOS number to see the
 * details. Sent in a POST body: neither lands in the address or the history.
 */
function HolderCheck({ number, onVerified }: { number: string; onVerified: (verification: TCertificateVerification) => void }) {
  const check = useVerifyByHolder();
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [indosNo, setIndosNo] = useState('');
  const [formError, setFormError] = useState<string>();
  const [notMatched, setNotMatched] = useState(false);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = ZVerifyByHolderRequest.safeParse({ number, ...(dateOfBirth ? { dateOfBirth } : {}), ...(indosNo.trim() ? { indosNo } : {}) });
    if (!parsed.success) {
      setFormError(parsed.error.issues[0]?.message ?? C.holderDetailRequired);
      return;
    }
    setFormError(undefined);
    setNotMatched(false);
    check.mutate(parsed.data, {
      onSuccess: (verification) => {
        if (verification.detail === 'full') onVerified(verification);
        else setNotMatched(true);
      },
    });
  }

  const refused = check.isError ? errorMessage(check.error, { fallback: C.loadFailed }) : undefined;
  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="holder-check-heading" className="rounded-xl border border-border bg-card p-4 shadow-card sm:p-6">
      <h2 id="holder-check-heading" className="flex items-center gap-2 text-base font-semibold text-navy-900">
        <UserCheck className="size-5 text-sea-700" aria-hidden />
        See the holder's name, course and date
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        The number alone shows only the initials. Enter the holder's date of birth or INDOS number, or open the link or QR code printed on the certificate.
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <FormField id="holder-birth-date" label="Date of birth">
          {(controlProps) => (
            <Input {...controlProps} type="date" name="dateOfBirth" value={dateOfBirth} onChange={(event) => setDateOfBirth(event.target.value)} autoComplete="off" />
          )}
        </FormField>
        <FormField id="holder-indos" label="INDOS number">
          {(controlProps) => (
            <Input
              {...controlProps}
              name="indosNo"
              value={indosNo}
              onChange={(event) => setIndosNo(event.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="font-mono"
            />
          )}
        </FormField>
      </div>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SubmitButton pending={check.isPending}>Show details</SubmitButton>
        <div aria-live="polite" className="text-sm">
          {formError && <p className="font-medium text-destructive">{formError}</p>}
          {!formError && refused && <p className="font-medium text-destructive">{refused}</p>}
          {!formError && !refused && notMatched && !check.isPending && <p className="text-navy-900">{C.holderNotMatched}</p>}
        </div>
      </div>
    </form>
  );
}

/** What the server says about the number in the address (with the link's code, when it has one). */
function VerificationResult({ number, code }: { number: string; code: string | undefined }) {
  const verification = useCertificateVerification(number, code);
  const [byHolder, setByHolder] = useState<TCertificateVerification>();
  const heading = useRef<HTMLHeadingElement>(null);
  // Once the holder's details match, the card says more: the focus goes to its heading to read it.
  useEffect(() => {
    if (byHolder) heading.current?.focus();
  }, [byHolder]);

  let result;
  if (verification.isPending) {
    result = (
      <div aria-busy className="rounded-xl border border-border bg-card p-5 shadow-card">
        <span role="status" className="sr-only">
          Checking the certificate…
        </span>
        <div className="flex items-start gap-3">
          <Skeleton className="size-11 shrink-0 rounded-full" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-7 w-3/4" />
          </div>
        </div>
        <Skeleton className="mt-6 h-10" />
      </div>
    );
  } else if (verification.isError) {
    result =
      httpStatusOf(verification.error) === 404 ? (
        <Alert variant="warning">
          <SearchX aria-hidden />
          <AlertTitle>No certificate found for {number}</AlertTitle>
          <AlertDescription>
            <p>{C.unknownNumber}</p>
          </AlertDescription>
        </Alert>
      ) : (
        <LoadError
          title={C.loadFailed}
          message={errorMessage(verification.error, { fallback: C.loadFailed })}
          onRetry={() => void verification.refetch()}
          retrying={verification.isFetching}
        />
      );
  }
  const shown = byHolder ?? verification.data;
  if (shown) {
    result =
      shown.detail === 'superseded-version' ? <SupersededVersionCard verification={shown} /> : <VerificationCard verification={shown} headingRef={heading} />;
  }
  return (
    <div className="grid gap-4">
      <div aria-live="polite">{result}</div>
      {shown?.detail === 'masked' && (
        <>
          {code && (
            <Alert variant="warning">
              <AlertCircle aria-hidden />
              <AlertDescription>
                <p>{C.codeNotMatched}</p>
              </AlertDescription>
            </Alert>
          )}
          <HolderCheck number={number} onVerified={setByHolder} />
        </>
      )}
    </div>
  );
}

/** The form that checks a typed number; under the result when the address already names one. */
function NumberForm({ initial, pathError, compact }: { initial: string; pathError: string | undefined; compact: boolean }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState(initial);
  const [typedError, setTypedError] = useState<string>();
  // A new address (back, forward, a link) shows its number in the field.
  const [shownInitial, setShownInitial] = useState(initial);
  if (shownInitial !== initial) {
    setShownInitial(initial);
    setTyped(initial);
    setTypedError(undefined);
  }
  const error = typedError ?? pathError;

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
    <form noValidate onSubmit={onSubmit} role="search" aria-label="Check a certificate" className="rounded-xl border border-border bg-card p-4 shadow-card sm:p-6">
      {compact && <h2 className="mb-3 text-base font-semibold text-navy-900">Check another certificate</h2>}
      <FormField
        id="certificate-number"
        label="Certificate number"
        error={error}
        hint="As printed on the certificate, for example MTA/2026/000123."
      >
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
            <Button type="submit" variant={compact ? 'outline' : 'default'} className="sm:w-auto">
              <Search aria-hidden />
              Verify
            </Button>
          </div>
        )}
      </FormField>
    </form>
  );
}

const ABOUT_THE_CHECK =
  "With the link or QR code printed on the certificate, the check shows whether it is valid, expiring, expired, revoked or renewed, the holder's name, the course and its dates. With the number alone, it shows the state, the dates and the holder's initials.";

/**
 * /verify, /verify/{number} and /verify/{number}?code={code}: anyone checks a certificate (public,
 * no login). With a number in the address the verdict comes first, under a slim heading, and the
 * form for another number after it.
 */
export function VerifyPage() {
  const site = useSiteConfig();
  const fromPath = numberFromPath(useParams()['*']);
  const [search] = useSearchParams();
  const parsedPath = fromPath ? ZCertificateNumber.safeParse(fromPath) : undefined;
  const number = parsedPath?.success ? parsedPath.data : undefined;
  const pathError = parsedPath && !parsedPath.success ? parsedPath.error.issues[0]?.message : undefined;
  const givenCode = search.get('code');
  const parsedCode = givenCode === null ? undefined : ZVerificationCode.safeParse(givenCode);
  const code = parsedCode?.success ? parsedCode.data : undefined;

  useDocumentTitle(number ? `Certificate ${number}` : 'Verify a certificate');
  usePageMeta({
    description: `Check a ${site.name} certificate: enter its number, or scan the QR code printed on it, to see whether it is valid.`,
    noIndex: Boolean(fromPath),
  });

  if (!fromPath) {
    return (
      <>
        <PageHero eyebrow="Certificates" title="Verify a certificate">
          Employers and port officers can confirm a certificate issued by {site.name}: type its number, or scan the QR code printed on it.
        </PageHero>
        <div className="mx-auto grid w-full max-w-2xl gap-8 px-4 py-12 sm:px-6 sm:py-16">
          <NumberForm initial="" pathError={undefined} compact={false} />
          <p className="flex items-start gap-2 text-sm text-muted-foreground">
            <AlertCircle className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
            {ABOUT_THE_CHECK}
          </p>
        </div>
      </>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-2xl gap-4 px-4 pt-5 pb-12 sm:gap-6 sm:px-6 sm:pt-10 sm:pb-16">
      <header>
        <p className="text-xs font-semibold tracking-wider text-sea-700 uppercase">{site.name}</p>
        <h1 className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Certificate check</h1>
      </header>
      {parsedCode && !parsedCode.success && number && (
        <Alert variant="warning">
          <AlertCircle aria-hidden />
          <AlertDescription>
            <p>{C.codeFormat}</p>
          </AlertDescription>
        </Alert>
      )}
      {number && <VerificationResult key={`${number} ${code ?? ''}`} number={number} code={code} />}
      <NumberForm initial={number ?? fromPath} pathError={pathError} compact={Boolean(number)} />
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <AlertCircle className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
        {ABOUT_THE_CHECK}
      </p>
    </div>
  );
}

import { AlertTriangle, ArrowLeft, History, IdCard, ShieldCheck, Undo2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { IDENTITY_RETURN_REASON_MAX_LENGTH, IDENTITY_STATE_LABELS } from '../../../shared/identity.ts';
import { PROFILE_FIELD_LABELS as L } from '../../../shared/profile-fields.ts';
import type { TIdentityCheckView } from '../../../shared/schemas/identity.ts';
import { isAdminArea, paths } from '@/config/paths.ts';
import { useAdminDocumentTitle } from '@/components/layouts/admin-page.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { DocumentLink, SignaturePreview } from '@/components/profile/profile-documents.tsx';
import { IdentityStateBadge } from '@/components/profile/identity-state-badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useIdentityCheck, useIdentityDecision } from '@/features/admin-identity/api/use-identity-check.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { formatCalendarDate, formatDateTime } from '@/lib/format.ts';

function returnPath(state: unknown): string {
  if (state && typeof state === 'object' && 'returnTo' in state && typeof state.returnTo === 'string' && isAdminArea(state.returnTo)) return state.returnTo;
  return paths.admin.users.identityChecks;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 text-base font-medium break-words text-navy-900">{children}</dd>
    </div>
  );
}

function Panel({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center gap-2.5">
        <span className="flex size-8 items-center justify-center rounded-md bg-sea-50 text-sea-700">{icon}</span>
        <CardTitle asChild>
          <h2 className="text-base">{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="pt-4">{children}</CardContent>
    </Card>
  );
}

/** The values to check, beside the documents to check them against. */
function IdentityAndDocuments({ view }: { view: TIdentityCheckView }) {
  const { profile } = view;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Panel title="Identity as the learner gave it" icon={<IdCard className="size-4" aria-hidden />}>
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label="Name as in passport">{profile.name}</Field>
          <Field label={L.dateOfBirth}>{formatCalendarDate(profile.dateOfBirth)}</Field>
          <Field label={L.indosNo}>{profile.indosNo}</Field>
          <Field label={L.passportNumber}>{profile.passportNumber}</Field>
          <Field label={L.passportExpiryDate}>{formatCalendarDate(profile.passportExpiryDate)}</Field>
          <Field label={L.cdcNumber}>{profile.cdcNumber}</Field>
          <Field label="ID document type">{profile.idTypeLabel}</Field>
        </dl>
      </Panel>
      <Panel title="Uploaded documents" icon={<ShieldCheck className="size-4" aria-hidden />}>
        <div className="grid gap-4">
          <figure className="grid gap-2">
            <a href={profile.profilePicture.url} target="_blank" rel="noopener noreferrer" className="w-fit rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
              <img src={profile.profilePicture.url} alt={`Photograph of ${profile.name}`} className="h-40 w-32 rounded-md border border-border object-cover" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
            <figcaption className="text-sm text-muted-foreground">Photograph</figcaption>
          </figure>
          {profile.idDocument.isImage ? (
            <figure className="grid gap-2">
              <a href={profile.idDocument.url} target="_blank" rel="noopener noreferrer" className="w-fit rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
                <img src={profile.idDocument.url} alt={`${profile.idTypeLabel} of ${profile.name}`} className="max-h-64 max-w-full rounded-md border border-border object-contain" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
              <figcaption className="text-sm text-muted-foreground">ID document ({profile.idTypeLabel})</figcaption>
            </figure>
          ) : (
            <DocumentLink file={profile.idDocument} label={`Open the ID document (${profile.idTypeLabel})`} />
          )}
          <div className="grid gap-2">
            <SignaturePreview file={profile.signature} name={profile.name} />
            <span className="text-sm text-muted-foreground">Signature</span>
          </div>
        </div>
      </Panel>
    </div>
  );
}

/** Verify and Return, each confirmed; Return asks for the reason the learner will read. */
function Decision({ view, userId }: { view: TIdentityCheckView; userId: string }) {
  const { profile, duplicates } = view;
  const { verify, giveBack, verifying, returning } = useIdentityDecision(userId);
  const [asking, setAsking] = useState<'verify' | 'return' | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [ackError, setAckError] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  if (profile.identity.state !== 'awaiting_check') {
    return (
      <p className="text-sm text-muted-foreground">
        {IDENTITY_STATE_LABELS[profile.identity.state]}
        {profile.identity.checkedAt && (
          <>
            {' '}
            by {profile.identity.checkedByName ?? 'a former member of staff'} on {formatDateTime(profile.identity.checkedAt)}
          </>
        )}
        {profile.identity.state === 'returned' && profile.identity.returnReason && <> · Reason: “{profile.identity.returnReason}”</>}. The
        learner’s next change sends it back here.
      </p>
    );
  }
  const version = profile.identity.version;
  return (
    <div className="flex flex-wrap gap-3">
      <Button onClick={() => setAsking('verify')}>
        <ShieldCheck aria-hidden />
        Verify
      </Button>
      <Button variant="outline" className="text-destructive" onClick={() => setAsking('return')}>
        <Undo2 aria-hidden />
        Return to learner
      </Button>
      <ConfirmDialog
        open={asking === 'verify'}
        title="Verify this identity"
        description={`Have you compared ${profile.name}'s name, date of birth, INDOS, passport and CDC numbers and photograph with the uploaded documents? Certificates will print these values with your name as verifier.`}
        confirmLabel="Yes, Verify"
        pendingLabel="Verifying..."
        pending={verifying}
        onConfirm={() => {
          if (duplicates.length > 0 && !acknowledged) {
            setAckError(true);
            return;
          }
          void verify({ version, duplicatesAcknowledged: acknowledged }).finally(() => setAsking(null));
        }}
        onClose={() => setAsking(null)}
      >
        {duplicates.length > 0 ? (
          <div className="grid gap-1">
            <label className="flex items-start gap-2 text-sm text-navy-900">
              <input
                type="checkbox"
                className="mt-1 size-4"
                checked={acknowledged}
                aria-describedby={ackError ? 'duplicates-ack-error' : undefined}
                onChange={(event) => {
                  setAcknowledged(event.target.checked);
                  setAckError(false);
                }}
              />
              I have checked the other account with the same {duplicates.some((d) => d.fields.includes('indosNo')) ? 'INDOS' : 'passport'} number, and
              this verification is right.
            </label>
            {ackError && (
              <p id="duplicates-ack-error" role="alert" className="text-sm text-destructive">
                Confirm you have checked the other account first.
              </p>
            )}
          </div>
        ) : (
          <p className="text-sm text-navy-900">No other account has this INDOS or passport number.</p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'return'}
        title="Return the profile"
        description="The learner sees the reason on their profile and can correct it; the profile then comes back here."
        confirmLabel="Return profile"
        pendingLabel="Returning..."
        destructive
        pending={returning}
        onConfirm={() => {
          if (!reason.trim()) {
            setReasonError('Please say why the profile is returned: the learner reads it.');
            return;
          }
          void giveBack({ version, reason: reason.trim() }).finally(() => setAsking(null));
        }}
        onClose={() => setAsking(null)}
      >
        <label htmlFor="return-reason" className="text-sm font-medium text-navy-900">
          Reason (the learner reads it)
        </label>
        <Textarea
          id="return-reason"
          rows={3}
          maxLength={IDENTITY_RETURN_REASON_MAX_LENGTH}
          value={reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? 'return-reason-error' : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(null);
          }}
          className="mt-2"
        />
        {reasonError && (
          <p id="return-reason-error" role="alert" className="mt-1 text-sm text-destructive">
            {reasonError}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

function HistoryList({ view }: { view: TIdentityCheckView }) {
  return (
    <Panel title="History" icon={<History className="size-4" aria-hidden />}>
      {view.history.length === 0 ? (
        <p className="text-sm text-muted-foreground">No check recorded yet.</p>
      ) : (
        <ol className="grid gap-3">
          {view.history.map((entry) => (
            <li key={entry.id} className="grid gap-1 border-l-2 border-navy-100 pl-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <IdentityStateBadge state={entry.state} />
                <span className="text-muted-foreground">
                  {formatDateTime(entry.at)}
                  {entry.checkedByName && <> · by {entry.checkedByName}</>}
                </span>
              </div>
              <p className="wrap-anywhere text-navy-900">
                {entry.name} · born {formatCalendarDate(entry.dateOfBirth)} · INDOS {entry.indosNo} · Passport {entry.passportNumber} · CDC {entry.cdcNumber}
              </p>
              {entry.reason && <p className="text-muted-foreground">Reason: “{entry.reason}”</p>}
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

/**
 * The identity check of one profile: the values beside the uploaded photograph, ID document and
 * signature, the other accounts with the same INDOS or passport number, Verify and Return, and the
 * history of earlier values and checks.
 */
export function IdentityCheckPage() {
  const { userId = '' } = useParams();
  const location = useLocation();
  const query = useIdentityCheck(userId);
  const status = httpStatusOf(query.error);
  useAdminDocumentTitle(query.data ? `Identity check: ${query.data.profile.name}` : 'Identity check');

  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <Link
        to={returnPath(location.state)}
        className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-sea-700 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Back to Identity checks
      </Link>
      {query.isPending ? (
        <div className="grid gap-4" aria-busy="true" aria-label="Loading the profile">
          <Skeleton className="h-9 w-1/2" />
          <div className="grid gap-6 lg:grid-cols-2">
            <Skeleton className="h-72" />
            <Skeleton className="h-72" />
          </div>
        </div>
      ) : query.isError ? (
        <LoadError
          title={status === 404 ? 'No profile to check' : 'The profile could not be loaded'}
          message={status === 404 ? 'This learner has not sent a profile.' : errorMessage(query.error, { fallback: 'Something went wrong while loading this profile.' })}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <>
          <header className="grid gap-3">
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-bold tracking-tight break-words text-navy-900 sm:text-3xl">{query.data.profile.name}</h1>
              <IdentityStateBadge state={query.data.profile.identity.state} />
            </div>
            <p className="text-sm wrap-anywhere text-muted-foreground">
              Account: {query.data.profile.creator.firstName} {query.data.profile.creator.lastName}
              {query.data.profile.creator.email && <> · {query.data.profile.creator.email}</>}
            </p>
            <Decision view={query.data} userId={userId} />
          </header>
          {query.data.duplicates.length > 0 && (
            <section aria-labelledby="duplicates" className="grid gap-2 rounded-xl border border-red-200 bg-red-50 p-4">
              <h2 id="duplicates" className="flex items-center gap-2 font-semibold text-navy-900">
                <AlertTriangle className="size-5 shrink-0 text-destructive" aria-hidden />
                The same number is on another account
              </h2>
              <ul className="grid gap-1 text-sm text-navy-900">
                {query.data.duplicates.map((other) => (
                  <li key={other.userId}>
                    <Link to={paths.admin.users.identityCheck(other.userId)} className="font-medium text-sea-700 underline underline-offset-4">
                      {other.name}
                    </Link>{' '}
                    ({other.email}) · same {other.fields.map((field) => (field === 'indosNo' ? 'INDOS' : 'passport')).join(' and ')} ·{' '}
                    {IDENTITY_STATE_LABELS[other.state]}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <IdentityAndDocuments view={query.data} />
          <HistoryList view={query.data} />
        </>
      )}
    </div>
  );
}

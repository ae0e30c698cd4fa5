import { CalendarClock, CircleCheck, Clock, Pencil, Undo2 } from 'lucide-react';
import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { EXPIRY_WARNING_MONTHS } from '../../../shared/profile-fields.ts';
import type { TProfile } from '../../../shared/schemas/profile.ts';
import { paths } from '@/config/paths.ts';
import { LoadError } from '@/components/lists/list-states.tsx';
import { ProfileDetailsSkeleton } from '@/components/profile/profile-details-skeleton.tsx';
import { ProfileDetails } from '@/components/profile/profile-details.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useMyProfile } from '@/features/profile/api/use-my-profile.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCalendarDate } from '@/lib/format.ts';
import { lazyNamed } from '@/lib/lazy-component.tsx';
import { useDeferredData } from '@/lib/use-deferred-data.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/**
 * The creation form, with the form library and zod, is fetched only for a learner who has no
 * profile yet: every later visit shows the details without that code (decision 035).
 */
const ProfileCreateForm = lazyNamed(() => import('@/features/profile/profile-create-form.tsx'), 'ProfileCreateForm');

/** What the learner should do about documents that expired or expire soon. */
function ExpiryNotice({ profile }: { profile: TProfile }) {
  const lines: string[] = [];
  for (const [status, name, date] of [
    [profile.passportExpiryStatus, 'Your passport', profile.passportExpiryDate],
    [profile.cdcExpiryStatus, 'Your CDC', profile.cdcExpiryDate],
  ] as const) {
    if (status === 'expired') lines.push(`${name} expired on ${formatCalendarDate(date)}.`);
    if (status === 'expiring') lines.push(`${name} expires on ${formatCalendarDate(date)}, within ${EXPIRY_WARNING_MONTHS} months.`);
  }
  if (lines.length === 0) return null;
  return (
    <Alert variant="warning">
      <CalendarClock aria-hidden />
      <AlertTitle>Renew your documents</AlertTitle>
      <AlertDescription>
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        <p className="mt-1">Once renewed, use Edit Profile to update the number and expiry date.</p>
      </AlertDescription>
    </Alert>
  );
}

/**
 * Where the academy's check of the learner's identity stands: awaiting, verified or returned with
 * the reason to act on; and that changing an identity field sends the profile back for a check.
 */
function IdentityNotice({ profile }: { profile: TProfile }) {
  const { state, checkedAt, returnReason } = profile.identity;
  const changes = 'Changing your name, date of birth, INDOS, passport or CDC number, photograph or ID document sends your profile back for a check; certificates already issued keep the values they were issued with.';
  if (state === 'returned') {
    return (
      <Alert variant="destructive">
        <Undo2 aria-hidden />
        <AlertTitle>Identity returned: please correct your profile</AlertTitle>
        <AlertDescription>
          {returnReason && <p>The academy says: “{returnReason}”</p>}
          <p className="mt-1">Use Edit Profile to correct it; saving sends it for a new check.</p>
        </AlertDescription>
      </Alert>
    );
  }
  if (state === 'verified') {
    return (
      <Alert variant="success">
        <CircleCheck aria-hidden />
        <AlertTitle>Identity verified{checkedAt ? ` on ${formatCalendarDate(checkedAt.slice(0, 10))}` : ''}</AlertTitle>
        <AlertDescription>
          <p>{changes}</p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="warning">
      <Clock aria-hidden />
      <AlertTitle>{state === 'awaiting_check' ? 'Identity awaiting check' : 'Identity not verified'}</AlertTitle>
      <AlertDescription>
        <p>The academy checks your identity details against your documents. Courses that require it open their test once it is verified.</p>
        <p className="mt-1">{changes}</p>
      </AlertDescription>
    </Alert>
  );
}

/** /profile: the learner's profile, or the creation form while they have none (spec section 2). */
export function ProfilePage() {
  const query = useMyProfile();
  const { data: profile, arriving } = useDeferredData(query.data);
  useDocumentTitle(profile === null ? 'Create your profile' : 'My Profile');

  return (
    <div className="flex-1 bg-muted/60">
      <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        {query.isPending || arriving ? (
          <ProfileDetailsSkeleton label="Loading your profile…" />
        ) : query.isError ? (
          <LoadError
            title="Your profile could not be loaded"
            message={errorMessage(query.error, { fallback: 'Something went wrong while loading your profile.' })}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : profile === null || profile === undefined ? (
          <>
            <header>
              <h1 className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Create your profile</h1>
              <p className="mt-2 max-w-2xl text-muted-foreground">
                The academy needs your seafaring details and documents before it can approve your account. Every field
                is required; it takes about five minutes.
              </p>
            </header>
            <Suspense fallback={<ProfileDetailsSkeleton label="Loading the profile form…" />}>
              <ProfileCreateForm />
            </Suspense>
          </>
        ) : (
          <>
            <IdentityNotice profile={profile} />
            <ExpiryNotice profile={profile} />
            <ProfileDetails
              profile={profile}
              actions={
                <Button asChild>
                  <Link to={paths.profileEdit} state={{ profile }}>
                    <Pencil aria-hidden />
                    Edit Profile
                  </Link>
                </Button>
              }
            />
          </>
        )}
        {!query.isPending && !arriving && (
          <p className="text-sm text-muted-foreground">
            <Link to={paths.yourData} className="font-medium text-sea-700 underline underline-offset-2 hover:text-sea-800">
              Your data
            </Link>
            : download a copy of everything the academy holds about you, or close your account.
          </p>
        )}
      </div>
    </div>
  );
}

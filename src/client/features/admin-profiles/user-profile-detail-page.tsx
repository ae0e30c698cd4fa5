import { ArrowLeft, UserRoundX } from 'lucide-react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { isAdminArea, paths } from '@/config/paths.ts';
import { useAdminDocumentTitle } from '@/components/layouts/admin-page.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { ProfileDetailsSkeleton } from '@/components/profile/profile-details-skeleton.tsx';
import { ProfileDetails } from '@/components/profile/profile-details.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { useUserProfile } from '@/features/admin-profiles/api/use-user-profile.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';

/** Where the back link goes: the list (with its search) the administrator came from, else the list. */
function returnPath(state: unknown): string {
  if (state && typeof state === 'object' && 'returnTo' in state && typeof state.returnTo === 'string' && isAdminArea(state.returnTo)) {
    return state.returnTo;
  }
  return paths.admin.users.profiles;
}

/**
 * One user's profile for administrators, with every document, so a reviewer can check them before
 * approving the account (linked from the user lists and the profile cards).
 */
export function UserProfileDetailPage() {
  const { userId = '' } = useParams();
  const location = useLocation();
  const back = returnPath(location.state);
  const query = useUserProfile(userId);
  const status = httpStatusOf(query.error);
  const missing = status === 404 || status === 400;

  useAdminDocumentTitle(query.data?.name ?? 'User profile');

  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <Link
        to={back}
        className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-sea-700 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Back to User Profiles
      </Link>
      {query.isPending ? (
        <ProfileDetailsSkeleton />
      ) : missing ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-navy-50 text-navy-600">
              <UserRoundX className="size-6" aria-hidden />
            </span>
            <h1 className="text-lg font-semibold text-navy-900">No profile yet</h1>
            <p className="max-w-md text-sm text-muted-foreground">
              This user has not created a profile, so there are no documents to review. They can add one from their
              Profile page after logging in.
            </p>
          </CardContent>
        </Card>
      ) : query.isError ? (
        <LoadError
          title="The profile could not be loaded"
          message={errorMessage(query.error, { fallback: 'Something went wrong while loading this profile.' })}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <ProfileDetails profile={query.data} showAccountEmail />
      )}
    </div>
  );
}

import { UserRoundSearch } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { PROFILE_LIST_ERROR_TOAST_MS, PROFILE_SEARCH_MAX_LENGTH } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListSearch } from '@/components/lists/list-search.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { AdminProfileCard } from '@/features/admin-profiles/admin-profile-card.tsx';
import { useProfileList } from '@/features/admin-profiles/api/use-profile-list.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCount } from '@/lib/format.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';

const SEARCH_DEBOUNCE_MS = 350;

function CardsSkeleton() {
  return (
    <ul className="grid grid-cols-1 gap-5 xl:grid-cols-2" aria-hidden>
      {[0, 1, 2, 3].map((key) => (
        <li key={key}>
          <Card>
            <CardContent className="grid gap-4">
              <div className="flex items-center gap-4">
                <div className="size-16 shrink-0 animate-pulse rounded-full bg-navy-100" />
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-5 w-2/3" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
              </div>
              <div className="grid grid-cols-2 gap-3">
                {[0, 1, 2, 3, 4, 5].map((row) => (
                  <Skeleton key={row} className="h-9" />
                ))}
              </div>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/**
 * All User Profiles (spec section 2): every seafarer's profile as a card, searched and paged on the
 * server so it stays quick with 100 000 profiles. The search and page live in the address, so the
 * back button from a profile returns to the same results.
 */
export function UserProfilesPage() {
  const location = useLocation();
  const { page, setPage, search, term, setTerm, typing } = usePageParams({ searchDelayMs: SEARCH_DEBOUNCE_MS, scrollToTop: true });
  const query = useProfileList({ search, page });
  const { error, errorUpdatedAt } = query;

  useEffect(() => {
    if (!error) return;
    toast.error(errorMessage(error, { fallback: MESSAGES.profile.listFailed }), {
      id: 'user-profiles-error',
      duration: PROFILE_LIST_ERROR_TOAST_MS,
    });
  }, [error, errorUpdatedAt]);

  const returnTo = location.pathname + location.search;

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.users.profiles)}>
      <ListSearch
        id="profile-search"
        label="Search profiles"
        value={term}
        onChange={setTerm}
        maxLength={PROFILE_SEARCH_MAX_LENGTH}
        placeholder="Start of a name, e-mail, INDOS, passport or CDC number"
        searching={typing || (query.isFetching && !query.isPending)}
        clearable
        hint={
          <>
            Any part of a name (from three letters: “Menon” finds Kavya Menon), or the beginning of an e-mail, INDOS,
            passport or CDC number. Letter case is ignored.
          </>
        }
      />

      <PagedList
        query={query}
        paging={{ page, setPage }}
        noun="profiles"
        keepPageInRange={false}
        className="gap-3"
        paginationClassName="mt-3"
        error={
          <LoadError
            title={MESSAGES.profile.listFailed}
            message={errorMessage(query.error, { fallback: 'The server did not answer as expected.' })}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        }
        loading={<CardsSkeleton />}
        empty={
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-sea-50 text-sea-700">
                <UserRoundSearch className="size-6" aria-hidden />
              </span>
              {search ? (
                <>
                  <p className="font-semibold text-navy-900">No profile matches “{search}”.</p>
                  <p className="max-w-md text-sm text-muted-foreground">
                    Try part of the seafarer&apos;s name, the start of their e-mail, or an INDOS, passport or CDC number.
                  </p>
                  <Button variant="outline" size="sm" onClick={() => setTerm('')}>
                    Clear search
                  </Button>
                </>
              ) : page > 1 ? (
                <>
                  <p className="font-semibold text-navy-900">This page is empty.</p>
                  <Button variant="outline" size="sm" onClick={() => setPage(1)}>
                    Go to the first page
                  </Button>
                </>
              ) : (
                <>
                  <p className="font-semibold text-navy-900">No seafarer has created a profile yet.</p>
                  <p className="max-w-md text-sm text-muted-foreground">
                    Profiles appear here as soon as learners fill in theirs after signing up.
                  </p>
                </>
              )}
            </CardContent>
          </Card>
        }
        summary={({ total }) => (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {formatCount(total)} {total === 1 ? 'profile' : 'profiles'}
            {search && <> matching “{search}”</>}
          </p>
        )}
      >
        {(profiles) => (
          <ul className={query.isPlaceholderData ? 'grid grid-cols-1 gap-5 opacity-60 transition-opacity xl:grid-cols-2' : 'grid grid-cols-1 gap-5 xl:grid-cols-2'}>
            {profiles.map((profile) => (
              <li key={profile.id}>
                <AdminProfileCard profile={profile} returnTo={returnTo} />
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </AdminPage>
  );
}

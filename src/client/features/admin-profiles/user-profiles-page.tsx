import { AlertCircle, RotateCw, Search, UserRoundSearch, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { PROFILE_LIST_ERROR_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { PROFILE_SEARCH_MAX_LENGTH } from '../../../shared/schemas/profile.ts';
import { AdminPageHeader } from '@/components/layouts/admin-page-header.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Pagination } from '@/components/ui/pagination.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useProfileList } from '@/features/admin-profiles/api/use-profile-list.ts';
import { AdminProfileCard } from '@/features/admin-profiles/admin-profile-card.tsx';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { errorMessage } from '@/lib/api-errors.ts';

const SEARCH_DEBOUNCE_MS = 350;

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

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
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const page = pageFrom(params.get('page'));
  const [term, setTerm] = useState(search);
  const settledTerm = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);

  useEffect(() => {
    document.title = 'User Profiles · Admin Dashboard';
  }, []);

  // A settled new search starts again from its first page.
  useEffect(() => {
    if (settledTerm === search) return;
    setParams(settledTerm ? { q: settledTerm } : {}, { replace: true });
  }, [settledTerm, search, setParams]);

  const query = useProfileList({ search, page });
  const { error, errorUpdatedAt } = query;

  useEffect(() => {
    if (!error) return;
    toast.error(errorMessage(error, { fallback: MESSAGES.profile.listFailed }), {
      id: 'user-profiles-error',
      duration: PROFILE_LIST_ERROR_TOAST_MS,
    });
  }, [error, errorUpdatedAt]);

  function goToPage(next: number) {
    setParams(search ? { q: search, page: String(next) } : { page: String(next) });
    window.scrollTo({ top: 0 });
  }

  const data = query.data;
  const total = data?.total ?? 0;
  const returnTo = location.pathname + location.search;
  const searching = term.trim() !== search || (query.isFetching && !query.isPending);

  return (
    <div className="mx-auto max-w-6xl">
      <AdminPageHeader
        title="User Profiles"
        description="Seafarers' details and identity documents, newest first. Expired or soon-expiring passports and CDCs are flagged."
      />

      <div role="search" className="mb-6 grid gap-1.5">
        <label htmlFor="profile-search" className="text-sm font-medium text-navy-900">
          Search profiles
        </label>
        <div className="relative max-w-xl">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            id="profile-search"
            type="search"
            value={term}
            maxLength={PROFILE_SEARCH_MAX_LENGTH}
            onChange={(event) => setTerm(event.target.value)}
            placeholder="Start of a name, e-mail, INDOS, passport or CDC number"
            aria-describedby="profile-search-hint"
            className="pr-10 pl-9 [&::-webkit-search-cancel-button]:hidden"
            autoComplete="off"
          />
          {searching ? (
            <Spinner size="sm" label="Searching…" className="absolute top-1/2 right-3 -translate-y-1/2" />
          ) : (
            term && (
              <button
                type="button"
                onClick={() => setTerm('')}
                className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-muted-foreground outline-none hover:bg-navy-50 hover:text-navy-900 focus-visible:ring-2 focus-visible:ring-ring"
              >
                <X className="size-4" aria-hidden />
                <span className="sr-only">Clear search</span>
              </button>
            )
          )}
        </div>
        <p id="profile-search-hint" className="text-xs text-muted-foreground">
          Any part of a name (from three letters: “Menon” finds Kavya Menon), or the beginning of an e-mail, INDOS,
          passport or CDC number. Letter case is ignored.
        </p>
      </div>

      {query.isError && (
        <Alert variant="destructive" className="mb-6">
          <AlertCircle aria-hidden />
          <AlertTitle>{MESSAGES.profile.listFailed}</AlertTitle>
          <AlertDescription>
            <p>{errorMessage(query.error, { fallback: 'The server did not answer as expected.' })}</p>
            <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()} disabled={query.isFetching}>
              <RotateCw aria-hidden className={query.isFetching ? 'animate-spin' : undefined} />
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      )}

      {query.isPending ? (
        <CardsSkeleton />
      ) : data && data.items.length === 0 ? (
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
                <Button variant="outline" size="sm" onClick={() => goToPage(1)}>
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
      ) : (
        data && (
          <>
            <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
              {total.toLocaleString('en-IN')} {total === 1 ? 'profile' : 'profiles'}
              {search && <> matching “{search}”</>}
            </p>
            <ul className={query.isPlaceholderData ? 'grid grid-cols-1 gap-5 opacity-60 transition-opacity xl:grid-cols-2' : 'grid grid-cols-1 gap-5 xl:grid-cols-2'}>
              {data.items.map((profile) => (
                <li key={profile._id}>
                  <AdminProfileCard profile={profile} returnTo={returnTo} />
                </li>
              ))}
            </ul>
            <Pagination page={page} pageSize={data.pageSize} total={total} onPageChange={goToPage} noun="profiles" className="mt-6" />
          </>
        )
      )}
    </div>
  );
}

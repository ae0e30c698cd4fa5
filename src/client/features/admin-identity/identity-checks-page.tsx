import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { IDENTITY_STATE_LABELS, IDENTITY_STATES, type TIdentityState } from '../../../shared/identity.ts';
import { PROFILE_SEARCH_MAX_LENGTH } from '../../../shared/constants.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListSearch } from '@/components/lists/list-search.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { DuplicateFlag, IdentityStateBadge } from '@/components/profile/identity-state-badge.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useIdentityQueue } from '@/features/admin-identity/api/use-identity-queue.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCount, formatDateTime } from '@/lib/format.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';

function QueueSkeleton() {
  return (
    <ul className="grid gap-3" aria-hidden>
      {[0, 1, 2, 3].map((key) => (
        <li key={key}>
          <Card>
            <CardContent className="grid gap-2">
              <Skeleton className="h-5 w-1/3" />
              <Skeleton className="h-4 w-2/3" />
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/**
 * The identity checks' queue: profiles awaiting a check first (the oldest change first), each with
 * its state and a flag when another account has the same INDOS or passport number; a profile
 * opens its check screen.
 */
export function IdentityChecksPage() {
  const location = useLocation();
  const { page, setPage, search, term, setTerm, typing } = usePageParams({ searchDelayMs: 350, scrollToTop: true });
  const [state, setState] = useState<TIdentityState | ''>('');
  const query = useIdentityQueue({ search, page, state: state || undefined });
  const returnTo = location.pathname + location.search;

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.users.identityChecks)}>
      <div className="grid gap-3 sm:grid-cols-[1fr_14rem] sm:items-start">
        <ListSearch
          id="identity-search"
          label="Search"
          value={term}
          onChange={setTerm}
          maxLength={PROFILE_SEARCH_MAX_LENGTH}
          placeholder="Name, e-mail, INDOS or passport number"
          searching={typing || (query.isFetching && !query.isPending)}
          clearable
        />
        <div className="mb-6 grid gap-1.5">
          <label htmlFor="identity-state" className="text-sm font-medium text-navy-900">
            State
          </label>
          <NativeSelect
            id="identity-state"
            value={state}
            onChange={(event) => {
              setState(event.target.value as TIdentityState | '');
              setPage(1);
            }}
          >
            <option value="">Every state</option>
            {IDENTITY_STATES.map((value) => (
              <option key={value} value={value}>
                {IDENTITY_STATE_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      <PagedList
        query={query}
        paging={{ page, setPage }}
        noun="profiles"
        keepPageInRange={false}
        className="gap-3"
        paginationClassName="mt-3"
        error={
          <LoadError
            title="The identity checks could not be loaded"
            message={errorMessage(query.error, { fallback: 'The server did not answer as expected.' })}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        }
        loading={<QueueSkeleton />}
        empty={
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-14 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-sea-50 text-sea-700">
                <ShieldCheck className="size-6" aria-hidden />
              </span>
              <p className="font-semibold text-navy-900">{search || state ? 'No profile matches.' : 'No profile to check yet.'}</p>
              <p className="max-w-md text-sm text-muted-foreground">Profiles appear here as soon as learners send theirs.</p>
            </CardContent>
          </Card>
        }
        summary={({ total }) => (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {formatCount(total)} {total === 1 ? 'profile' : 'profiles'}
          </p>
        )}
      >
        {(items) => (
          <ul className={query.isPlaceholderData ? 'grid gap-3 opacity-60' : 'grid gap-3'}>
            {items.map((item) => (
              <li key={item.userId}>
                <Card className={item.state === 'awaiting_check' ? 'border-yellow-300' : undefined}>
                  <CardContent className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-center">
                    <div className="grid min-w-0 gap-1.5">
                      <div className="flex flex-wrap items-center gap-2">
                        <Link
                          to={paths.admin.users.identityCheck(item.userId)}
                          state={{ returnTo }}
                          className="rounded-sm text-base font-semibold break-words text-sea-700 underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                        >
                          {item.name}
                        </Link>
                        <IdentityStateBadge state={item.state} />
                        <DuplicateFlag duplicates={item.duplicates} />
                      </div>
                      <p className="text-sm wrap-anywhere text-muted-foreground">
                        {item.email} · INDOS {item.indosNo} · Passport {item.passportNumber}
                      </p>
                    </div>
                    <p className="text-xs text-muted-foreground sm:text-right">
                      {item.state === 'awaiting_check' || !item.checkedAt ? 'Changed' : 'Checked'} {formatDateTime(item.checkedAt && item.state !== 'awaiting_check' ? item.checkedAt : item.changedAt)}
                    </p>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </AdminPage>
  );
}

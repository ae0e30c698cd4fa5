import { FileText } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest } from '../../../shared/schemas/tests.ts';
import { paths } from '@/config/paths.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

type TTestsQuery = { data: TAdminTest[] | undefined; isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };

/** A list of tests with its loading, error and empty states; `children` lays out the tests. */
export function TestsListStates({
  query,
  empty,
  emptyHint,
  children,
}: {
  query: TTestsQuery;
  empty: string;
  emptyHint: string;
  children: (tests: TAdminTest[]) => ReactNode;
}) {
  const mayEdit = useStaffMay('courses.edit');
  if (query.isError && !query.data) {
    return (
      <LoadError
        title={MESSAGES.tests.fetchFailed}
        message={errorMessage(query.error, { fallback: MESSAGES.tests.fetchFailed })}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (!query.data) {
    return (
      <div className="grid gap-4" aria-busy>
        <span role="status" className="sr-only">
          Loading tests…
        </span>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} className="h-44 rounded-xl" />
        ))}
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <ListEmpty message={empty} hint={emptyHint} icon={FileText}>
        {mayEdit && (
          <Button asChild className="mt-5">
            <Link to={paths.admin.tests.create}>Create Test</Link>
          </Button>
        )}
      </ListEmpty>
    );
  }
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {query.data.length === 1 ? '1 test' : `${query.data.length} tests`}
      </p>
      {children(query.data)}
    </div>
  );
}

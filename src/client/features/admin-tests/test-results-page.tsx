import { Download, ListChecks, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS, RESULTS_SEARCH_MAX_LENGTH } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListSearch } from '@/components/lists/list-search.tsx';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { downloadResultsCsv } from '@/features/admin-tests/api/download-results-csv.ts';
import { useTestResults } from '@/features/admin-tests/api/use-test-results.ts';
import { ResultCard } from '@/features/admin-tests/result-card.tsx';
import { ResultCertificateSlot } from '@/features/admin-tests/result-certificate.tsx';
import { ResultGrantAttempt } from '@/features/admin-tests/result-grant.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCount } from '@/lib/format.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

const T = MESSAGES.tests;

/** Export CSV: every attempt matching the search, not only the page on screen. */
function ExportButton({ search, disabled }: { search: string; disabled: boolean }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  async function download() {
    setPending(true);
    const outcome = await downloadResultsCsv(search);
    setPending(false);
    if (outcome.outcome === 'saved') toast.success(T.exported, { duration: ADMIN_TOAST_MS, description: outcome.fileName });
    else if (outcome.outcome === 'unauthorized') navigate(paths.adminLogin);
    else toast.error(outcome.message ?? T.exportFailed, { duration: ADMIN_TOAST_MS });
  }
  return (
    <Button variant="outline" onClick={() => void download()} disabled={disabled || pending} aria-busy={pending || undefined}>
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
      Export CSV
    </Button>
  );
}

/**
 * /admin-dashboard/user-results: the submitted attempts, searched on the server by learner name,
 * e-mail or course title (kept in the address), a page at a time, each with its answers beside
 * the correct ones; Export CSV downloads every matching attempt.
 */
export function TestResultsPage() {
  const { page, setPage, search, term, setTerm, typing } = usePageParams({ searchDelayMs: 300, scrollToTop: true });
  const results = useTestResults({ search, page });
  const nothing = results.data?.total === 0;
  const mayGrant = useStaffMay('courses.edit');

  return (
    <AdminPage
      {...adminPageHeadOf(paths.admin.tests.results)}
      action={<ExportButton search={search} disabled={nothing || typing} />}
    >
      <ListSearch
        id="results-search"
        label="Search by learner name, e-mail or course title"
        labelHidden
        value={term}
        onChange={setTerm}
        maxLength={RESULTS_SEARCH_MAX_LENGTH}
        placeholder="Search by name, e-mail or course"
        searching={results.isFetching && (typing || results.isPlaceholderData)}
        clearable
      />
      <PagedList
        query={results}
        paging={{ page, setPage }}
        noun="results"
        error={
          <LoadError
            title={T.resultsFailed}
            message={errorMessage(results.error, { fallback: T.resultsFailed })}
            onRetry={() => void results.refetch()}
            retrying={results.isFetching}
          />
        }
        loading={
          <div className="grid gap-4" aria-busy>
            <span role="status" className="sr-only">
              Loading results…
            </span>
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-52 rounded-xl" />
            ))}
          </div>
        }
        empty={
          <ListEmpty
            icon={ListChecks}
            message={search ? 'No results match your search.' : 'No test submissions yet.'}
            hint={search ? 'Try another name, e-mail address or course title.' : 'Results appear here as learners submit their tests.'}
          />
        }
        summary={({ total, totalIsEstimate }) => (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {totalIsEstimate ? `${formatCount(total)}+ results` : total === 1 ? '1 result' : `${total} results`}
            {search ? ` matching “${search}”` : ''}
          </p>
        )}
      >
        {(items) => (
          <ul className="grid gap-4">
            {items.map((result) => (
              <ResultCard
                key={result.id}
                result={result}
                certificate={<ResultCertificateSlot certificate={result.certificate} learner={result.user.name} />}
                action={result.passed || !mayGrant ? undefined : <ResultGrantAttempt result={result} />}
              />
            ))}
          </ul>
        )}
      </PagedList>
    </AdminPage>
  );
}

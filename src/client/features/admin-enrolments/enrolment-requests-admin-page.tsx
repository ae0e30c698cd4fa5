import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ENROLMENT_SEARCH_MAX_LENGTH, ENROLMENT_STATUSES, type TEnrolmentStatus } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListSearch } from '@/components/lists/list-search.tsx';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useEnrolmentDecision } from '@/features/admin-enrolments/api/use-enrolment-decision.ts';
import { useEnrolmentRequestCounts } from '@/features/admin-enrolments/api/use-enrolment-request-counts.ts';
import { useEnrolmentRequests } from '@/features/admin-enrolments/api/use-enrolment-requests.ts';
import { DecisionDialog, type TDecisionTarget } from '@/features/admin-enrolments/decision-dialog.tsx';
import { RequestCard } from '@/features/admin-enrolments/request-card.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

const SEARCH_DELAY_MS = 300;
const GRID = 'grid gap-5 lg:grid-cols-2';
const STATUS = 'status';

/** Each state's tab, the word its list summary uses, and what its empty list says to do next. */
const STATES: Record<TEnrolmentStatus, { tab: string; adjective: string; emptyHint: string }> = {
  pending: { tab: 'Pending', adjective: 'pending', emptyHint: 'New requests appear here as learners ask for courses.' },
  approved: { tab: 'Approved', adjective: 'approved', emptyHint: 'Requests you accept appear here; reject one to close the course to its learner.' },
  rejected: { tab: 'Rejected', adjective: 'rejected', emptyHint: 'Requests you reject appear here; accept one to open the course after all.' },
};

/** The state in the address (`?status=approved`); pending, the requests waiting, when there is none. */
function statusFrom(value: string | null): TEnrolmentStatus {
  return ENROLMENT_STATUSES.find((status) => status === value) ?? 'pending';
}

type RequestListProps = {
  status: TEnrolmentStatus;
  search: string;
  list: ReturnType<typeof useEnrolmentRequests>;
  paging: { page: number; setPage: (page: number, options?: { replace?: boolean }) => void };
  onDecide: ((target: TDecisionTarget) => void) | undefined;
};

/** One state's requests, a page at a time. */
function RequestList({ status, search, list, paging, onDecide }: RequestListProps) {
  const { adjective, emptyHint } = STATES[status];
  return (
    // Deciding the last request of the last page leaves it empty: the list shows the new last page.
    <PagedList
      query={list}
      paging={paging}
      noun="requests"
      className="gap-6"
      error={
        <LoadError
          title={MESSAGES.enrolment.loadInactiveFailed}
          message={errorMessage(list.error, { fallback: MESSAGES.common.internal })}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      }
      loading={
        <div className={GRID} aria-busy>
          <span role="status" className="sr-only">
            Loading requests…
          </span>
          {[0, 1, 2, 3].map((index) => (
            <Skeleton key={index} className="h-72 rounded-xl" />
          ))}
        </div>
      }
      empty={
        <ListEmpty message={MESSAGES.enrolment.noMatches} hint={search ? 'Try another name, e-mail address or course title.' : emptyHint} />
      }
      summary={({ total }) => (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {total === 1 ? `1 ${adjective} request` : `${total} ${adjective} requests`}
          {search ? ` matching “${search}”` : ''}
        </p>
      )}
    >
      {(requests) => (
        <ul className={GRID}>
          {requests.map((request) => (
            <RequestCard key={request.id} request={request} onDecide={onDecide && ((decision) => onDecide({ request, decision }))} />
          ))}
        </ul>
      )}
    </PagedList>
  );
}

/**
 * /admin-dashboard/enrollment-request: the learners' requests by state, searched on the server, a
 * page at a time. Pending requests can be accepted or rejected, rejected ones accepted after all,
 * and approved ones rejected, which closes the course to the learner.
 */
export function EnrolmentRequestsAdminPage() {
  const { page, setPage, search, term, setTerm, typing } = usePageParams({ searchDelayMs: SEARCH_DELAY_MS });
  const [params, setParams] = useSearchParams();
  const status = statusFrom(params.get(STATUS));
  const list = useEnrolmentRequests({ status, search, page });
  const counts = useEnrolmentRequestCounts(search);
  const decision = useEnrolmentDecision();
  const [target, setTarget] = useState<TDecisionTarget | null>(null);
  const mayDecide = useStaffMay('enrolments.decide');
  const recorded = useRef(false);
  const tabs = useRef<Partial<Record<TEnrolmentStatus, HTMLButtonElement | null>>>({});

  function showStatus(next: TEnrolmentStatus) {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next === 'pending') updated.delete(STATUS);
        else updated.set(STATUS, next);
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  }

  function confirm() {
    if (!target) return;
    decision.decide(target.request.id, target.decision, (done) => {
      recorded.current = done;
      setTarget(null);
    });
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.courses.enrolmentRequests)}>
      <ListSearch
        id="request-search"
        label="Search by learner name, course title or e-mail"
        labelHidden
        value={term}
        onChange={setTerm}
        maxLength={ENROLMENT_SEARCH_MAX_LENGTH}
        placeholder="Search by name, course or e-mail"
        searching={list.isFetching && (typing || list.isPlaceholderData)}
      />

      <Tabs value={status} onValueChange={(value) => showStatus(statusFrom(value))} className="grid gap-6">
        <TabsList aria-label="Requests by state" className="justify-self-start">
          {ENROLMENT_STATUSES.map((state) => (
            <TabsTrigger
              key={state}
              value={state}
              ref={(element) => {
                tabs.current[state] = element;
              }}
            >
              {/* Label and count side by side, or the count under the label where three tabs share a phone's width. */}
              <span className="flex flex-col items-center gap-0.5 sm:flex-row sm:gap-2">
                {STATES[state].tab}{' '}
                {/* Space kept for the count, so the tabs do not move when it arrives. */}
                <span className="h-5 min-w-6 rounded-full bg-navy-50 px-1.5 text-center text-xs leading-5 text-navy-800 tabular-nums">
                  {counts[state] !== undefined && (
                    <>
                      {counts[state]}{' '}
                      <span className="sr-only">{counts[state] === 1 ? 'request' : 'requests'}</span>
                    </>
                  )}
                </span>
              </span>
            </TabsTrigger>
          ))}
        </TabsList>
        {/* Radix renders only the chosen tab's panel; the list is that state's requests. */}
        <TabsContent value={status}>
          <RequestList status={status} search={search} list={list} paging={{ page, setPage }} onDecide={mayDecide ? setTarget : undefined} />
        </TabsContent>
      </Tabs>

      <DecisionDialog
        target={target}
        pending={decision.pending}
        onConfirm={confirm}
        onClose={() => setTarget(null)}
        onCloseAutoFocus={(event) => {
          // The decided request leaves this state's list, and with it the button that opened the
          // dialog: focus goes to this state's tab, just above the list, instead of the page's end.
          if (!recorded.current) return;
          recorded.current = false;
          event.preventDefault();
          tabs.current[status]?.focus();
        }}
      />
    </AdminPage>
  );
}

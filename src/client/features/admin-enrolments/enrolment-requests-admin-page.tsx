import { Check, Mail, UserRound, X } from 'lucide-react';
import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { ENROLMENT_SEARCH_MAX_LENGTH, type TEnrolmentRequestItem } from '../../../shared/schemas/enrolment.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { ListSearch } from '@/components/lists/list-search.tsx';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { type TDecision, useEnrolmentDecision } from '@/features/admin-enrolments/api/use-enrolment-decision.ts';
import { useEnrolmentRequests } from '@/features/admin-enrolments/api/use-enrolment-requests.ts';
import { DecisionDialog } from '@/features/admin-enrolments/decision-dialog.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatDay, formatRupees } from '@/lib/format.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';

const SEARCH_DELAY_MS = 300;
const GRID = 'grid gap-5 lg:grid-cols-2';

function RequestCard({ request, onDecide }: { request: TEnrolmentRequestItem; onDecide: (decision: TDecision) => void }) {
  const { course, user } = request;
  const headingId = `request-${request.id}`;
  return (
    <li>
      <article aria-labelledby={headingId} className="flex h-full flex-col rounded-xl border border-border bg-card p-5 shadow-card">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="outline">{course.category}</Badge>
          {!course.isActive && <Badge variant="default">Course inactive</Badge>}
          <span className="ml-auto text-xs text-muted-foreground">Requested {formatDay(request.requestedAt)}</span>
        </div>
        <h2 id={headingId} className="mt-3 text-lg leading-snug font-semibold text-navy-900">
          {course.title}
        </h2>
        <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{course.description}</p>

        <dl className="mt-4 grid gap-2 rounded-lg bg-muted p-3 text-sm">
          <div className="flex items-center gap-2">
            <UserRound className="size-4 shrink-0 text-sea-700" aria-hidden />
            <dt className="sr-only">Learner</dt>
            <dd className="font-semibold text-navy-900">{user.name}</dd>
          </div>
          <div className="flex items-center gap-2">
            <Mail className="size-4 shrink-0 text-sea-700" aria-hidden />
            <dt className="sr-only">E-mail</dt>
            <dd className="min-w-0 break-all text-navy-900">{user.email}</dd>
          </div>
        </dl>

        <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Duration</dt>
            <dd className="font-medium text-navy-900">{course.duration}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Price</dt>
            <dd className="font-semibold text-navy-900">{formatRupees(course.price)}</dd>
          </div>
        </dl>

        <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
          <Button variant="outline" onClick={() => onDecide('reject')} aria-label={`Reject ${user.name}'s request for ${course.title}`}>
            <X aria-hidden />
            Reject
          </Button>
          <Button onClick={() => onDecide('accept')} aria-label={`Accept ${user.name}'s request for ${course.title}`}>
            <Check aria-hidden />
            Accept
          </Button>
        </div>
      </article>
    </li>
  );
}

/** /admin-dashboard/enrollment-request: pending requests, searched on the server, a page at a time. */
export function EnrolmentRequestsAdminPage() {
  const { page, setPage, search, term, setTerm, typing } = usePageParams({ searchDelayMs: SEARCH_DELAY_MS });
  const list = useEnrolmentRequests({ search, page });
  const decision = useEnrolmentDecision();
  const [target, setTarget] = useState<{ request: TEnrolmentRequestItem; decision: TDecision } | null>(null);

  function confirm() {
    if (!target) return;
    decision.decide(target.request.id, target.decision, () => setTarget(null));
  }

  return (
    <AdminPage
      width="6xl"
      title="User Enrollment Requests"
      description="Learners waiting for a place in a course. Accept to open the course to them, or reject the request."
    >
      <ListSearch
        id="request-search"
        label="Search by learner name, course title or e-mail"
        labelHidden
        value={term}
        onChange={setTerm}
        maxLength={ENROLMENT_SEARCH_MAX_LENGTH}
        placeholder="Search by learner name, course title or e-mail"
        searching={list.isFetching && (typing || list.isPlaceholderData)}
      />

      {/* Deciding the last request of the last page leaves it empty: the list shows the new last page. */}
      <PagedList
        query={list}
        paging={{ page, setPage }}
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
          <ListEmpty
            message={MESSAGES.enrolment.noMatches}
            hint={search ? 'Try another name, e-mail address or course title.' : 'New requests appear here as learners ask for courses.'}
          />
        }
        summary={({ total }) => (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? '1 pending request' : `${total} pending requests`}
            {search ? ` matching “${search}”` : ''}
          </p>
        )}
      >
        {(requests) => (
          <ul className={GRID}>
            {requests.map((request) => (
              <RequestCard key={request.id} request={request} onDecide={(choice) => setTarget({ request, decision: choice })} />
            ))}
          </ul>
        )}
      </PagedList>

      <DecisionDialog target={target} pending={decision.pending} onConfirm={confirm} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

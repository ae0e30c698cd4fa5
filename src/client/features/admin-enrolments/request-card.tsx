import { Check, Mail, UserRound, X } from 'lucide-react';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import type { TEnrolmentRequestItem } from '../../../shared/schemas/enrolment.ts';
import { EnrolmentStatusBadge } from '@/components/course/enrolment-status-badge.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmailAddress } from '@/components/ui/email-address.tsx';
import type { TDecision } from '@/features/admin-enrolments/api/use-enrolment-decision.ts';
import { formatDay, formatRupees } from '@/lib/format.ts';

/**
 * What an administrator may decide about a request in each state (spec section 2: Accept while it
 * is inactive, Reject while it is active). A pending request can also be turned down straight
 * away, as the server allows, so nobody has to accept a request only to reject it.
 */
export const DECISIONS: Record<TEnrolmentStatus, readonly TDecision[]> = {
  pending: ['reject', 'accept'],
  rejected: ['accept'],
  approved: ['reject'],
};

const DECIDED = { approved: 'Approved', rejected: 'Rejected' } as const;

type RequestCardProps = {
  request: TEnrolmentRequestItem;
  /** Absent for a role that may not decide: the card shows the request without its buttons. */
  onDecide: ((decision: TDecision) => void) | undefined;
};

/** One enrolment request: the course, the learner, the request's state and what can be done with it. */
export function RequestCard({ request, onDecide }: RequestCardProps) {
  const { course, user, status } = request;
  const headingId = `request-${request.id}`;
  const decisions = onDecide ? DECISIONS[status] : [];
  return (
    <li>
      <article aria-labelledby={headingId} className="flex h-full flex-col rounded-xl border border-border bg-card p-5 shadow-card">
        <div className="flex flex-wrap items-center gap-2">
          <EnrolmentStatusBadge status={status} />
          <Badge variant="outline">{course.category}</Badge>
          {!course.isActive && <Badge variant="default">Course inactive</Badge>}
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
            <dd className="min-w-0 text-navy-900">
              <EmailAddress email={user.email} />
            </dd>
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
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Requested</dt>
            <dd className="font-medium text-navy-900">{formatDay(request.requestedAt)}</dd>
          </div>
          {status !== 'pending' && request.decidedAt && (
            <div className="flex gap-1.5">
              <dt className="text-muted-foreground">{DECIDED[status]}</dt>
              <dd className="font-medium text-navy-900">{formatDay(request.decidedAt)}</dd>
            </div>
          )}
        </dl>

        {/* One column per possible decision, so a lone button keeps the width it has beside another. */}
        {onDecide && (
          <div className="mt-auto grid grid-cols-2 gap-2 pt-5">
            {decisions.includes('reject') && (
              <Button
                variant="outline"
                className={decisions.length === 1 ? 'col-start-2' : undefined}
                onClick={() => onDecide('reject')}
                aria-label={`Reject ${user.name}'s request for ${course.title}`}
              >
                <X aria-hidden />
                Reject
              </Button>
            )}
            {decisions.includes('accept') && (
              <Button
                className={decisions.length === 1 ? 'col-start-2' : undefined}
                onClick={() => onDecide('accept')}
                aria-label={`Accept ${user.name}'s request for ${course.title}`}
              >
                <Check aria-hidden />
                Accept
              </Button>
            )}
          </div>
        )}
      </article>
    </li>
  );
}

import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TMyEnrolment } from '../../../shared/schemas/enrolment.ts';
import { paths } from '@/config/paths.ts';
import { EnrolmentStatusBadge } from '@/components/course/enrolment-status-badge.tsx';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useMyEnrolments } from '@/features/enrolments/api/use-my-enrolments.ts';
import { LearnerPageHeader } from '@/features/enrolments/learner-page-header.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatDay, formatRupees } from '@/lib/format.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const OUTCOME: Record<TMyEnrolment['status'], string> = {
  pending: 'The academy is reviewing your request.',
  approved: 'Approved: the course is open to you.',
  rejected: 'Not approved. You may request the course again from your dashboard.',
};

function RequestRow({ enrolment }: { enrolment: TMyEnrolment }) {
  const { course, status } = enrolment;
  return (
    <li className="grid gap-4 rounded-xl border border-border bg-card p-5 shadow-card sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <EnrolmentStatusBadge status={status} />
          <span className="text-xs text-muted-foreground">{course.category}</span>
        </div>
        <h2 className="mt-2 text-lg font-semibold text-navy-900">{course.title}</h2>
        <p className="mt-1 text-sm text-muted-foreground">{OUTCOME[status]}</p>
        <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Requested</dt>
            <dd className="font-medium text-navy-900">{formatDay(enrolment.requestedAt)}</dd>
          </div>
          {enrolment.decidedAt && status !== 'pending' && (
            <div className="flex gap-1.5">
              <dt className="text-muted-foreground">{status === 'approved' ? 'Approved' : 'Decided'}</dt>
              <dd className="font-medium text-navy-900">{formatDay(enrolment.decidedAt)}</dd>
            </div>
          )}
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Duration</dt>
            <dd className="font-medium text-navy-900">{course.duration}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Price</dt>
            <dd className="font-medium text-navy-900">{formatRupees(course.price)}</dd>
          </div>
        </dl>
      </div>
      {enrolment.hasAccess && (
        <Button asChild variant="outline">
          <Link to={paths.courseContent(course.id)}>
            Open course
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      )}
    </li>
  );
}

/** /EnrollmentRequest: the learner's own enrolment requests and where each stands. */
export function EnrolmentRequestsPage() {
  useDocumentTitle('Enrollment Requests');
  const mine = useMyEnrolments({ fresh: true });

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10 sm:px-6">
      <LearnerPageHeader eyebrow="Enrolment" title="Your Enrollment Requests">
        Every course you have asked for, newest first, and the academy&apos;s answer.
      </LearnerPageHeader>

      <div className="mt-8">
        {mine.isPending ? (
          <div className="grid gap-4" aria-busy>
            <span role="status" className="sr-only">
              Loading your requests…
            </span>
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-32 rounded-xl" />
            ))}
          </div>
        ) : mine.isError ? (
          <LoadError
            title={MESSAGES.enrolment.loadFailed}
            message={errorMessage(mine.error, { fallback: MESSAGES.enrolment.loadFailed })}
            onRetry={() => void mine.refetch()}
            retrying={mine.isFetching}
          />
        ) : mine.data.length === 0 ? (
          <ListEmpty
            message="You have not requested any course yet."
            hint="Choose a course in the Course List on your dashboard and press Enrollment."
          >
            <Button asChild className="mt-5">
              <Link to={paths.dashboard}>Go to your dashboard</Link>
            </Button>
          </ListEmpty>
        ) : (
          <ul className="grid gap-4">
            {[...mine.data]
              .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt))
              .map((enrolment) => (
                <RequestRow key={enrolment.id} enrolment={enrolment} />
              ))}
          </ul>
        )}
      </div>
    </div>
  );
}

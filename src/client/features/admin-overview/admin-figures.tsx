import { BookOpen, ClipboardCheck, type LucideIcon, MailQuestion, Send, UserRoundX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminFigures } from '../../../shared/schemas/overview.ts';
import { paths } from '@/config/paths.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useAdminFigures } from '@/features/admin-overview/api/use-admin-figures.ts';
import { PassRateChart } from '@/features/admin-overview/pass-rate-chart.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useStaffMayOpen } from '@/lib/staff-role.ts';

type TFigure = { key: keyof TAdminFigures; label: string; to: string; icon: LucideIcon };

const FIGURES: TFigure[] = [
  { key: 'pendingUsers', label: 'Pending users', to: paths.admin.users.unapproved, icon: UserRoundX },
  { key: 'pendingEnrolments', label: 'Pending enrolment requests', to: paths.admin.courses.enrolmentRequests, icon: MailQuestion },
  { key: 'activeCourses', label: 'Active courses', to: paths.admin.courses.list, icon: BookOpen },
  { key: 'publishedTests', label: 'Published tests', to: paths.admin.tests.published, icon: Send },
  { key: 'attemptsThisMonth', label: 'Test attempts this month', to: paths.admin.tests.results, icon: ClipboardCheck },
];

const CARD = 'rounded-xl border border-border bg-card shadow-card';

/** The landing page's figures, each a link to the screen that deals with it (where the role may open it), and the pass rate chart. */
export function AdminFigures() {
  const figures = useAdminFigures();
  const mayOpen = useStaffMayOpen();
  if (figures.isError && !figures.data) {
    return (
      <LoadError
        title={MESSAGES.overview.figuresFailed}
        message={errorMessage(figures.error, { fallback: MESSAGES.overview.figuresFailed })}
        onRetry={() => void figures.refetch()}
        retrying={figures.isFetching}
      />
    );
  }
  const data = figures.data;
  return (
    <div className="grid gap-6" aria-busy={!data || undefined}>
      {!data && (
        <span role="status" className="sr-only">
          Loading the figures…
        </span>
      )}
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        {FIGURES.map((figure) => {
          const body = (
            <>
              <span className="flex items-start gap-2 text-sm font-medium text-muted-foreground">
                <figure.icon className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
                {figure.label}
              </span>
              {/* At the foot of the card, so the figures line up whatever their labels' length. */}
              {data ? (
                <span className="mt-auto text-3xl font-bold text-navy-900 tabular-nums">{data[figure.key] as number}</span>
              ) : (
                <Skeleton className="mt-auto h-9 w-14" />
              )}
            </>
          );
          return (
            <li key={figure.key} className="min-w-0 last:col-span-2 lg:last:col-span-1">
              {/* A figure whose screen the member's role may not open is shown, not linked. */}
              {mayOpen(figure.to) ? (
                <Link
                  to={figure.to}
                  className={`${CARD} flex h-full flex-col gap-2 p-4 outline-none transition-colors hover:border-sea-300 hover:bg-sea-50/40 focus-visible:ring-2 focus-visible:ring-ring`}
                >
                  {body}
                </Link>
              ) : (
                <div className={`${CARD} flex h-full flex-col gap-2 p-4`}>{body}</div>
              )}
            </li>
          );
        })}
      </ul>
      <section className={`${CARD} p-4 sm:p-6`}>
        {!data ? (
          <div className="grid gap-3">
            <Skeleton className="h-6 w-48" />
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} className="h-5 w-full" />
            ))}
          </div>
        ) : data.passRates.length === 0 ? (
          <>
            <h2 className="mb-4 text-lg font-semibold text-navy-900">Pass rate per course</h2>
            <ListEmpty icon={ClipboardCheck} message="No test submitted yet." hint="Each course's pass rate appears here once its learners submit the test." />
          </>
        ) : (
          <PassRateChart rates={data.passRates} />
        )}
      </section>
    </div>
  );
}

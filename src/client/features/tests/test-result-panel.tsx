import { Award, FileBadge, RotateCw, XCircle } from 'lucide-react';
import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import type { TTestResult } from '../../../shared/schemas/assessment.ts';
import { paths } from '@/app/paths.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatDay } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

/** "45 s", "3 min 05 s", "1 h 02 min". */
export function formatTimeTaken(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
}

type TestResultPanelProps = {
  ref: Ref<HTMLHeadingElement>;
  result: TTestResult;
  courseTitle: string;
  /** Opens the test again: a new attempt (offered after a fail). */
  onTryAgain: () => void;
  reopening: boolean;
};

/** The server's score message, the figures behind it and the ways on. */
export function TestResultPanel({ ref, result, courseTitle, onTryAgain, reopening }: TestResultPanelProps) {
  const { passed, certificate } = result;
  const Icon = passed ? Award : XCircle;
  return (
    <section aria-labelledby="test-result-heading" className="mt-8 rounded-xl border border-border bg-card p-6 shadow-card sm:p-8">
      <div className="flex flex-col items-start gap-5 sm:flex-row">
        <span
          className={cn(
            'flex size-14 shrink-0 items-center justify-center rounded-full ring-1',
            passed ? 'bg-green-50 text-success ring-green-200' : 'bg-red-50 text-destructive ring-red-200',
          )}
        >
          <Icon className="size-7" aria-hidden />
        </span>
        <div className="min-w-0">
          <Badge variant={passed ? 'success' : 'destructive'}>{passed ? 'Passed' : 'Failed'}</Badge>
          <h2 id="test-result-heading" ref={ref} tabIndex={-1} className="mt-2 text-xl font-bold text-navy-900 outline-none sm:text-2xl">
            {passed ? 'Congratulations!' : 'Your result'}
          </h2>
          <p className="mt-2 text-navy-900" role="status">
            {result.message}
          </p>
        </div>
      </div>

      <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ['Score', `${result.score} of ${result.totalQuestions}`],
          ['Percentage', `${result.percentage}%`],
          ['Pass mark', `${result.passMark}%`],
          ['Time taken', formatTimeTaken(result.timeTakenSeconds)],
        ].map(([term, value]) => (
          <div key={term} className="rounded-lg bg-navy-50 px-4 py-3">
            <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
            <dd className="mt-0.5 text-lg font-semibold text-navy-900">{value}</dd>
          </div>
        ))}
      </dl>

      {passed && certificate && (
        <p className="mt-6 flex items-start gap-2 text-sm text-muted-foreground">
          <FileBadge className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
          <span>
            Your certificate for {courseTitle}, number <span className="font-semibold text-navy-900">{certificate.number}</span>, was issued on{' '}
            {formatDay(certificate.issuedAt)}.
          </span>
        </p>
      )}

      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {passed && (
          <Button asChild size="lg">
            <Link to={paths.courseCertificate(result.courseId)}>
              <FileBadge aria-hidden />
              View Certificate
            </Link>
          </Button>
        )}
        {!passed && (
          <Button size="lg" onClick={onTryAgain} disabled={reopening} aria-busy={reopening || undefined}>
            <RotateCw className={reopening ? 'animate-spin' : undefined} aria-hidden />
            Try again
          </Button>
        )}
        <Button asChild size="lg" variant="outline">
          <Link to={paths.userCourses}>Back to Courses</Link>
        </Button>
      </div>
    </section>
  );
}

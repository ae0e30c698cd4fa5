import { Award, FileBadge, PlayCircle, RotateCw, X, XCircle } from 'lucide-react';
import type { Ref } from 'react';
import { Link } from 'react-router-dom';
import type { TTestResult, TTestSession } from '../../../shared/schemas/tests.ts';
import { paths } from '@/config/paths.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatClockTime } from '@/lib/format.ts';
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
  /** The attempt's questions, in its order: after a pass, the ones answered wrongly are named. */
  questions: TTestSession['test']['questions'];
  /** Back to the test's overview, where the next attempt starts when it opens (offered after a fail with attempts left). */
  onTryAgain: () => void;
};

/** After a pass only (the server says which): the questions answered wrongly, with the answer given. */
function WrongAnswers({ result, questions }: { result: TTestResult; questions: TestResultPanelProps['questions'] }) {
  const wrong = new Set(result.wrongQuestionIds ?? []);
  const given = new Map(result.answers.map((answer) => [answer.questionId, answer.selectedAnswer]));
  const listed = questions.map((question, index) => ({ question, number: index + 1 })).filter(({ question }) => wrong.has(question.id));
  if (listed.length === 0) return <p className="mt-6 text-sm font-medium text-success">Every answer was right.</p>;
  return (
    <section aria-labelledby="wrong-answers-heading" className="mt-6">
      <h3 id="wrong-answers-heading" className="font-semibold text-navy-900">
        {listed.length === 1 ? '1 answer to review' : `${listed.length} answers to review`}
      </h3>
      <ul className="mt-3 grid gap-2">
        {listed.map(({ question, number }) => (
          <li key={question.id} className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm">
            <X className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
            <span className="min-w-0 break-words">
              <span className="font-semibold text-navy-900">Question {number}: </span>
              {question.questionText}
              <span className="mt-1 block text-muted-foreground">
                Your answer, not right: <span className="font-medium text-navy-900">{given.get(question.id)}</span>
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The server's score message, the figures behind it and the ways on. */
export function TestResultPanel({ ref, result, courseTitle, questions, onTryAgain }: TestResultPanelProps) {
  const { passed, certificate } = result;
  const attemptsLeft = passed ? null : result.attemptsLeft;
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

      <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {[
          ['Score', `${result.score} of ${result.totalQuestions}`],
          ['Percentage', `${result.percentage}%`],
          ['Pass mark', `${result.passMark}%`],
          ['Time taken', formatTimeTaken(result.timeTakenSeconds)],
          ...(attemptsLeft === null ? [] : [['Attempts left', String(attemptsLeft)]]),
          ...(!passed && result.nextAttemptAt ? [['Next attempt opens', formatClockTime(result.nextAttemptAt)]] : []),
        ].map(([term, value]) => (
          <div key={term} className="rounded-lg bg-navy-50 px-4 py-3">
            <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
            <dd className="mt-0.5 text-lg font-semibold text-navy-900">{value}</dd>
          </div>
        ))}
      </dl>

      {passed && <WrongAnswers result={result} questions={questions} />}

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
        {!passed && result.attemptsLeft > 0 && (
          <Button size="lg" onClick={onTryAgain}>
            <RotateCw aria-hidden />
            Try again
          </Button>
        )}
        {!passed && result.attemptsLeft === 0 && (
          <Button asChild size="lg">
            <Link to={paths.training(result.courseId)}>
              <PlayCircle aria-hidden />
              Go to the training
            </Link>
          </Button>
        )}
        <Button asChild size="lg" variant="outline">
          <Link to={paths.userCourses}>Back to Courses</Link>
        </Button>
      </div>
    </section>
  );
}

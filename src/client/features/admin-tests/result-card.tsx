import { Check, ChevronDown, X } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import type { TResultItem } from '../../../shared/schemas/tests.ts';
import { EmailAddress } from '@/components/ui/email-address.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold text-navy-900 tabular-nums">{children}</dd>
    </div>
  );
}

/** The selected answers beside the correct ones. */
function AnswerList({ result, id }: { result: TResultItem; id: string }) {
  return (
    <ol id={id} className="grid gap-3 border-t border-border pt-4">
      {result.answers.map((answer) => (
        <li key={answer.questionId} className="grid gap-1.5 text-sm">
          <p className="font-medium text-navy-900">
            <span className="mr-1 text-muted-foreground">{answer.position}.</span>
            {answer.questionText}
          </p>
          <div className="grid gap-1.5 sm:grid-cols-2">
            <p
              className={cn(
                'flex min-w-0 items-start gap-2 rounded-md border px-3 py-1.5',
                answer.isCorrect ? 'border-green-200 bg-green-50' : 'border-red-200 bg-red-50',
              )}
            >
              {answer.isCorrect ? <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden /> : <X className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />}
              <span className="min-w-0 break-words">
                <span className="text-muted-foreground">Selected: </span>
                {answer.selectedAnswer}
                <span className="sr-only">{answer.isCorrect ? ' (correct)' : ' (wrong)'}</span>
              </span>
            </p>
            <p className="flex min-w-0 items-start gap-2 rounded-md border border-border px-3 py-1.5">
              <span className="min-w-0 break-words">
                <span className="text-muted-foreground">Correct: </span>
                {answer.correctAnswer}
              </span>
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

/**
 * One submitted attempt: who, which course, the score, the time, the day, Passed or Failed, and
 * the answers on demand; `action` sits beside Show answers (Grant attempt on a failed one).
 */
export function ResultCard({ result, certificate, action }: { result: TResultItem; certificate?: ReactNode; action?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const listId = useId();
  return (
    <li>
      <article aria-labelledby={titleId} className="grid gap-4 rounded-xl border border-border bg-card p-4 shadow-card sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-0.5">
            <h2 id={titleId} className="text-lg font-semibold break-words text-navy-900">
              {result.user.name}
            </h2>
            <p className="min-w-0 text-sm break-words text-muted-foreground">
              <EmailAddress email={result.user.email} />
            </p>
          </div>
          <Badge variant={result.passed ? 'success' : 'destructive'}>{result.passed ? 'Passed' : 'Failed'}</Badge>
        </div>
        <p className="text-sm">
          <span className="text-muted-foreground">Course: </span>
          <span className="font-medium break-words text-navy-900">{result.course.title}</span>
        </p>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-4">
          <Figure label="Score">
            {result.score} / {result.totalQuestions}
          </Figure>
          <Figure label="Percentage">
            {result.percentage}% <span className="text-xs font-normal text-muted-foreground">(pass {result.test.passMark}%)</span>
          </Figure>
          <Figure label="Time taken">{result.timeTakenSeconds} s</Figure>
          <Figure label="Submitted">{formatDateTime(result.submittedAt)}</Figure>
        </dl>
        {certificate}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Button variant="ghost" size="sm" className="-ml-2" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((value) => !value)}>
            <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden />
            {open ? 'Hide answers' : 'Show answers'}
          </Button>
          {action}
        </div>
        {open && <AnswerList result={result} id={listId} />}
      </article>
    </li>
  );
}

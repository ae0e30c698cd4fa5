import { Check, ChevronDown } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import type { TAdminTest } from '../../../shared/schemas/tests.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { OPTION_LETTERS } from '@/features/admin-tests/option-letters.ts';
import { TestPolicyEditor } from '@/features/admin-tests/test-policy-editor.tsx';
import { formatDay } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

export function PublishedChip({ isPublished }: { isPublished: boolean }) {
  return <Badge variant={isPublished ? 'success' : 'outline'}>{isPublished ? 'Published' : 'Unpublished'}</Badge>;
}

/** The questions with their lettered options, the answer marked. */
function QuestionList({ test, id }: { test: TAdminTest; id: string }) {
  return (
    <ol id={id} className="grid gap-4 border-t border-border pt-4">
      {test.questions.map((question, index) => (
        <li key={question.id} className="grid gap-2">
          <p className="font-medium text-navy-900">
            <span className="mr-1 text-muted-foreground">{index + 1}.</span>
            {question.questionText}
          </p>
          <ul className="grid gap-1.5 sm:grid-cols-2">
            {question.options.map((option, optionIndex) => {
              const correct = option === question.correctAnswer;
              return (
                <li
                  key={optionIndex}
                  className={cn(
                    'flex min-w-0 items-start gap-2 rounded-md border px-3 py-1.5 text-sm',
                    correct ? 'border-green-200 bg-green-50 font-medium text-navy-900' : 'border-border text-navy-800',
                  )}
                >
                  <span className="font-semibold">{OPTION_LETTERS[optionIndex]}.</span>
                  <span className="min-w-0 break-words">{option}</span>
                  {correct && (
                    <span className="ml-auto flex shrink-0 items-center gap-1 text-xs font-semibold text-success">
                      <Check className="size-3.5" aria-hidden />
                      Answer
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/**
 * One test: title, course, pass mark, state, its attempts policy with Edit policy, its questions on
 * demand, and an action (Publish / Unpublish).
 */
export function TestCard({ test, action }: { test: TAdminTest; action?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const listId = useId();
  const mayEdit = useStaffMay('courses.edit');
  const count = test.questions.length;
  return (
    <li>
      <article aria-labelledby={titleId} className="grid gap-4 rounded-xl border border-border bg-card p-4 shadow-card sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <h2 id={titleId} className="text-lg font-semibold break-words text-navy-900">
              {test.title}
            </h2>
            <p className="text-sm text-muted-foreground">Created {formatDay(test.createdAt)}</p>
          </div>
          <PublishedChip isPublished={test.isPublished} />
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <div className="col-span-2 min-w-0 sm:col-span-1">
            <dt className="text-muted-foreground">Course</dt>
            <dd className="font-medium break-words text-navy-900">
              {test.course.title}
              {!test.course.isActive && <span className="ml-1 font-normal text-muted-foreground">(inactive)</span>}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Pass mark</dt>
            <dd className="font-medium text-navy-900">{test.passMark}%</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Questions</dt>
            <dd className="font-medium text-navy-900">{count}</dd>
          </div>
        </dl>
        {/* The attempts policy, changed from here: attempts started after a change follow it. */}
        <div className="flex flex-wrap items-end justify-between gap-3 rounded-lg border border-border bg-muted/40 px-3 py-2.5 sm:px-4">
          <dl className="grid grid-cols-3 gap-x-4 gap-y-2 text-sm sm:gap-x-6">
            <div>
              <dt className="text-muted-foreground">Asked per attempt</dt>
              <dd className="font-medium text-navy-900">{test.questionsPerAttempt === null ? 'All' : `${test.questionsPerAttempt} at random`}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Attempts</dt>
              <dd className="font-medium text-navy-900">{test.attemptsAllowed} per round</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Wait</dt>
              <dd className="font-medium text-navy-900">{test.waitMinutes === 0 ? 'None' : `${test.waitMinutes} min`}</dd>
            </div>
          </dl>
          {mayEdit && <TestPolicyEditor test={test} />}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Button variant="ghost" size="sm" className="-ml-2" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((value) => !value)}>
            <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden />
            {open ? 'Hide questions' : `Show ${count === 1 ? 'the question' : `the ${count} questions`}`}
          </Button>
          {action}
        </div>
        {open && <QuestionList test={test} id={listId} />}
      </article>
    </li>
  );
}

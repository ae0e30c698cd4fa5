import { Check, ClipboardList, Hourglass, X } from 'lucide-react';
import { useId } from 'react';
import type { TCertificateEvidence } from '../../../shared/schemas/evidence.ts';
import { ListEmpty } from '@/components/lists/list-states.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { formatElapsed, formatMoment, optionLetter } from '@/features/admin-evidence/evidence-format.ts';
import { EVIDENCE_CARD, EvidenceFigure } from '@/features/admin-evidence/evidence-layout.tsx';
import { cn } from '@/lib/utils.ts';

type TAttempt = TCertificateEvidence['attempts'][number];
type TQuestion = TAttempt['questions'][number];

/** Right or wrong, in words and an icon, never by colour alone. */
function Verdict({ correct }: { correct: boolean }) {
  return (
    <Badge variant={correct ? 'success' : 'destructive'}>
      {correct ? <Check aria-hidden /> : <X aria-hidden />}
      {correct ? 'Right' : 'Wrong'}
    </Badge>
  );
}

/** One question as the learner saw it: its options in the order shown, their answer and the right one. */
function QuestionEvidence({ question, position, submitted }: { question: TQuestion; position: number; submitted: boolean }) {
  const answered = question.selectedAnswer !== null;
  const answerShown = answered && question.options.includes(question.selectedAnswer!);
  return (
    <li className="grid gap-2 text-sm print:break-inside-avoid">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 flex-1 font-medium break-words text-navy-900">
          <span className="mr-1 text-muted-foreground">{position}.</span>
          {question.questionText}
        </p>
        {submitted && <Verdict correct={question.correct} />}
      </div>
      <ul className="grid gap-1.5 sm:grid-cols-2" aria-label={`Options of question ${position}, in the order shown`}>
        {question.options.map((option, index) => {
          const chosen = answered && option === question.selectedAnswer;
          const right = option === question.correctAnswer;
          return (
            <li
              key={`${index}-${option}`}
              className={cn(
                'flex min-w-0 flex-wrap items-start gap-x-2 gap-y-1 rounded-md border px-3 py-1.5',
                right ? 'border-green-200 bg-green-50' : chosen ? 'border-red-200 bg-red-50' : 'border-border',
              )}
            >
              <span className="font-semibold text-muted-foreground">{optionLetter(index)}.</span>
              <span className="min-w-0 flex-1 break-words text-navy-900">{option}</span>
              {(chosen || right) && (
                <span className="flex flex-wrap gap-1">
                  {chosen && (
                    <Badge variant="outline">
                      {right ? <Check aria-hidden /> : <X aria-hidden />}
                      Learner’s answer
                    </Badge>
                  )}
                  {right && (
                    <Badge variant="success">
                      <Check aria-hidden />
                      Right answer
                    </Badge>
                  )}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {!answered && <p className="text-muted-foreground">The learner gave no answer.</p>}
      {answered && !answerShown && (
        <p className="break-words text-muted-foreground">
          Learner’s answer, not among the options: <span className="text-navy-900">{question.selectedAnswer}</span>
        </p>
      )}
    </li>
  );
}

function Outcome({ passed }: { passed: boolean | null }) {
  if (passed === null) {
    return (
      <Badge variant="warning">
        <Hourglass aria-hidden />
        Not submitted
      </Badge>
    );
  }
  return (
    <Badge variant={passed ? 'success' : 'destructive'}>
      {passed ? <Check aria-hidden /> : <X aria-hidden />}
      {passed ? 'Passed' : 'Failed'}
    </Badge>
  );
}

/** One attempt: its times, score and result, then every question it drew. */
function AttemptEvidence({ attempt }: { attempt: TAttempt }) {
  const titleId = useId();
  const wrong = attempt.questions.filter((question) => !question.correct).length;
  return (
    <li>
      <article aria-labelledby={titleId} className={EVIDENCE_CARD}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h3 id={titleId} className="text-lg font-semibold text-navy-900">
            Attempt {attempt.number}
          </h3>
          <Outcome passed={attempt.passed} />
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-[repeat(5,auto)] lg:justify-between">
          <EvidenceFigure label="Started">{formatMoment(attempt.startedAt)}</EvidenceFigure>
          <EvidenceFigure label="Submitted">{attempt.submittedAt ? formatMoment(attempt.submittedAt) : 'Not submitted'}</EvidenceFigure>
          <EvidenceFigure label="Time taken">{formatElapsed(attempt.startedAt, attempt.submittedAt)}</EvidenceFigure>
          <EvidenceFigure label="Score">{attempt.score === null ? '—' : `${attempt.score} / ${attempt.totalQuestions ?? attempt.questions.length}`}</EvidenceFigure>
          <EvidenceFigure label="Percentage">{attempt.percentage === null ? '—' : `${attempt.percentage}%`}</EvidenceFigure>
        </dl>
        <div className="grid gap-3 border-t border-border pt-4">
          <h4 className="text-sm font-semibold text-navy-900">
            {attempt.questions.length === 1 ? '1 question' : `${attempt.questions.length} questions`}, in the order shown
            {attempt.submittedAt ? `: ${wrong === 0 ? 'none wrong' : `${wrong} wrong`}` : ''}
          </h4>
          <ol className="grid gap-4">
            {attempt.questions.map((question, index) => (
              <QuestionEvidence key={index} question={question} position={index + 1} submitted={attempt.submittedAt !== null} />
            ))}
          </ol>
        </div>
      </article>
    </li>
  );
}

/** "Test attempts": every attempt of the learner at the course's test, the first first. */
export function AttemptsEvidence({ attempts }: { attempts: TAttempt[] }) {
  if (attempts.length === 0) {
    return <ListEmpty icon={ClipboardList} message="No test attempt is recorded." hint="The certificate was issued without an attempt kept on record." />;
  }
  const passed = attempts.filter((attempt) => attempt.passed).length;
  return (
    <>
      <p className="text-sm text-muted-foreground">
        {attempts.length === 1 ? '1 attempt' : `${attempts.length} attempts`}, {passed === 1 ? '1 passed' : `${passed} passed`}. Each shows its
        questions and options in the order the learner saw them.
      </p>
      <ol className="grid gap-4">
        {attempts.map((attempt) => (
          <AttemptEvidence key={attempt.number} attempt={attempt} />
        ))}
      </ol>
    </>
  );
}

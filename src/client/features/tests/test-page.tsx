import { AlertCircle, Award, ClipboardCheck, FileBadge, FileQuestion, Lock, PlayCircle, RotateCw, Send, Timer, UserRoundCheck } from 'lucide-react';
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestResult, TTestSession, TTestStatus } from '../../../shared/schemas/tests.ts';
import { paths } from '@/config/paths.ts';
import { LoadError } from '@/components/lists/list-states.tsx';
import { BackLink } from '@/components/navigation/back-link.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { type TChosenAnswers, clearAnswers, readAnswers, writeAnswers } from '@/features/tests/answer-storage.ts';
import { useSubmitTest } from '@/features/tests/api/use-submit-test.ts';
import { useOpenAttempt } from '@/features/tests/api/use-open-attempt.ts';
import { TestResultPanel } from '@/features/tests/test-result-panel.tsx';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { useTestStatus } from '@/lib/api/tests.ts';
import { formatClockTime, formatDateTime, formatWaitLeft } from '@/lib/format.ts';
import { useNow } from '@/lib/use-now.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { cn } from '@/lib/utils.ts';

const T = MESSAGES.tests;
const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'];
/** At most this many "go to question" buttons under Submit; the count says the rest. */
const UNANSWERED_SHOWN = 8;

const optionId = (questionId: string, index: number) => `question-${questionId}-option-${index}`;

/** The way back to the training, when the test waits on it. */
function GoToTraining({ courseId }: { courseId: string }) {
  return (
    <Button asChild size="lg">
      <Link to={paths.training(courseId)}>
        <PlayCircle aria-hidden />
        Go to the training
      </Link>
    </Button>
  );
}

function QuestionFieldset({
  number,
  total,
  question,
  chosen,
  onChoose,
}: {
  number: number;
  total: number;
  question: TTestSession['test']['questions'][number];
  chosen: string | undefined;
  onChoose: (option: string) => void;
}) {
  return (
    <li>
      <fieldset className="scroll-mt-6 rounded-xl border border-border bg-card p-5 shadow-card sm:p-6">
        {/* Floated, so the legend lays out like a heading inside the card's padding. */}
        <legend className="float-left w-full">
          <span className="block text-xs font-semibold tracking-wider text-sea-700 uppercase">
            Question {number} of {total}
            {chosen === undefined && <span className="sr-only"> (not answered)</span>}
          </span>
          <span className="mt-1 block text-base font-semibold break-words whitespace-pre-line text-navy-900 sm:text-lg">{question.questionText}</span>
        </legend>
        <div className="clear-both grid gap-2 pt-4">
          {question.options.map((option, index) => {
            const id = optionId(question.id, index);
            return (
              <label
                key={id}
                htmlFor={id}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-lg border border-input bg-background px-4 py-3 text-sm transition-colors hover:bg-navy-50',
                  'has-[:checked]:border-sea-600 has-[:checked]:bg-sea-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  'has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-70',
                )}
              >
                <input
                  type="radio"
                  id={id}
                  name={`question-${question.id}`}
                  value={option}
                  checked={chosen === option}
                  onChange={() => onChoose(option)}
                  className="mt-0.5 size-4 shrink-0 accent-sea-700 outline-none"
                />
                <span className="font-semibold text-muted-foreground" aria-hidden>
                  {LETTERS[index] ?? index + 1}.
                </span>
                <span className="min-w-0 break-words text-navy-900">{option}</span>
              </label>
            );
          })}
        </div>
      </fieldset>
    </li>
  );
}

/** One attempt: the questions, the count of answers, Submit Test, then the result. */
function TestTaking({
  session,
  onReopen,
  onDone,
}: {
  session: TTestSession;
  onReopen: () => void;
  /** Back to the test's overview after a result: attempts left, the wait, the next start. */
  onDone: () => void;
}) {
  const { test, attempt } = session;
  const [answers, setAnswers] = useState<TChosenAnswers>(() => readAnswers(window.sessionStorage, session));
  const [result, setResult] = useState<TTestResult | null>(null);
  const submit = useSubmitTest();
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);

  const total = test.questions.length;
  const unanswered = test.questions.map((question, index) => ({ question, number: index + 1 })).filter(({ question }) => answers[question.id] === undefined);
  const answeredCount = total - unanswered.length;
  const complete = total > 0 && unanswered.length === 0;
  const busy = submit.isPending;

  useEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  function choose(questionId: string, option: string) {
    setAnswers((old) => {
      const next = { ...old, [questionId]: option };
      writeAnswers(window.sessionStorage, attempt.id, next);
      return next;
    });
  }

  function goToQuestion(questionId: string) {
    const first = document.getElementById(optionId(questionId, 0));
    first?.scrollIntoView({ block: 'center' });
    first?.focus({ preventScroll: true });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!complete || busy) return;
    submit.mutate(
      { testId: test.id, answers: test.questions.map((question) => ({ questionId: question.id, selectedAnswer: answers[question.id]! })) },
      {
        onSuccess: (answer) => {
          clearAnswers(window.sessionStorage, attempt.id);
          window.scrollTo({ top: 0 });
          setResult(answer);
        },
        onError: () => requestAnimationFrame(() => errorRef.current?.focus()),
      },
    );
  }

  if (result) {
    return <TestResultPanel ref={resultHeading} result={result} courseTitle={test.course.title} questions={test.questions} onTryAgain={onDone} />;
  }

  // The attempt was submitted elsewhere (another tab, or an answer that did not arrive): a new one must be opened.
  const attemptClosed = httpStatusOf(submit.error) === 409;
  const submitError = submit.error && errorMessage(submit.error, { fallback: T.somethingWrong, network: T.submitFailed });

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="test-title" aria-describedby="test-instructions">
      <p id="test-instructions" className="mt-3 text-sm text-muted-foreground">
        <span className="font-semibold text-navy-900">
          Attempt {attempt.number} of {attempt.attemptsAllowed}
        </span>{' '}
        · {total} question{total === 1 ? '' : 's'} · pass mark {test.passMark}%. Choose one answer for each question. Your answers are kept on
        this device until you submit.
      </p>
      <ol className="mt-8 grid gap-5" aria-label="Questions">
        {test.questions.map((question, index) => (
          <QuestionFieldset
            key={question.id}
            number={index + 1}
            total={total}
            question={question}
            chosen={answers[question.id]}
            onChoose={(option) => choose(question.id, option)}
          />
        ))}
      </ol>

      {submitError && (
        <Alert variant="destructive" className="mt-6" ref={errorRef} tabIndex={-1}>
          <AlertCircle aria-hidden />
          <AlertTitle>{submitError}</AlertTitle>
          <AlertDescription>
            {attemptClosed ? (
              <Button type="button" variant="outline" size="sm" className="mt-2" onClick={onReopen}>
                <RotateCw aria-hidden />
                Open the test again
              </Button>
            ) : (
              <p>Your answers are kept on this device. Check your connection, then submit again.</p>
            )}
          </AlertDescription>
        </Alert>
      )}

      <div className="sticky bottom-0 z-10 mt-6 -mx-4 border-t border-border bg-background/95 px-4 py-4 backdrop-blur-sm sm:mx-0 sm:rounded-xl sm:border sm:px-6 sm:shadow-card">
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <div className="min-w-40 flex-1">
            <p id="answered-count" className="text-sm font-medium text-navy-900" aria-live="polite">
              Answered {answeredCount} of {total}
            </p>
            <Progress value={total ? (answeredCount / total) * 100 : 0} className="mt-2" aria-labelledby="answered-count" />
          </div>
          <Button
            type="submit"
            size="lg"
            className="w-full sm:w-auto"
            disabled={!complete || busy}
            aria-busy={busy || undefined}
            aria-describedby={complete ? undefined : 'submit-hint'}
          >
            {busy ? <RotateCw className="animate-spin" aria-hidden /> : <Send aria-hidden />}
            {busy ? 'Submitting…' : 'Submit Test'}
          </Button>
        </div>
        {!complete && (
          <div id="submit-hint" className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
            <span>Answer every question to submit. Not answered yet:</span>
            {unanswered.slice(0, UNANSWERED_SHOWN).map(({ question, number }) => (
              <button
                key={question.id}
                type="button"
                className="rounded-sm font-semibold text-sea-700 underline underline-offset-2 outline-none hover:text-sea-800 focus-visible:ring-2 focus-visible:ring-ring"
                onClick={() => goToQuestion(question.id)}
                aria-label={`Go to question ${number}`}
              >
                {number}
              </button>
            ))}
            {unanswered.length > UNANSWERED_SHOWN && <span>and {unanswered.length - UNANSWERED_SHOWN} more</span>}
          </div>
        )}
      </div>
    </form>
  );
}

function TestSkeleton() {
  return (
    <div aria-busy className="mt-8 grid gap-5">
      <span role="status" className="sr-only">
        Loading the test…
      </span>
      {[0, 1, 2].map((card) => (
        <div key={card} aria-hidden className="grid gap-3 rounded-xl border border-border bg-card p-6 shadow-card">
          <Skeleton className="h-3 w-28" />
          <Skeleton className="h-5 w-4/5" />
          {[0, 1, 2, 3].map((option) => (
            <Skeleton key={option} className="h-11 w-full rounded-lg" />
          ))}
        </div>
      ))}
    </div>
  );
}

/** The test cannot be taken: the server's reason, and the way on. */
function Unavailable({ icon: Icon, title, message, courseId, toTraining }: { icon: typeof Lock; title: string; message: string; courseId: string; toTraining: boolean }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center py-12 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-sea-50 text-sea-700 ring-1 ring-sea-100">
        <Icon className="size-8" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-navy-900">{title}</h1>
      <p className="mt-3 text-muted-foreground" role="status">
        {message}
      </p>
      <div className="mt-8 flex w-full flex-col justify-center gap-3 sm:flex-row">
        {toTraining && (
          <GoToTraining courseId={courseId} />
        )}
        <Button asChild size="lg" variant={toTraining ? 'outline' : 'default'}>
          <Link to={paths.userCourses}>Back to Courses</Link>
        </Button>
      </div>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg bg-navy-50 px-4 py-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold text-navy-900 tabular-nums">{children}</dd>
    </div>
  );
}

/** The wait after an attempt: when the next one opens, counting down; the standing is read again when it has. */
function WaitNotice({ nextAttemptAt, onOpen }: { nextAttemptAt: string; onOpen: () => void }) {
  const opensAt = Date.parse(nextAttemptAt);
  const now = useNow(true);
  const left = opensAt - now;
  const opened = left <= 0;
  useEffect(() => {
    if (opened) onOpen();
  }, [opened, onOpen]);
  return (
    <Alert variant="warning" className="mt-6">
      <Timer aria-hidden />
      <AlertTitle>Your next attempt opens at {formatClockTime(nextAttemptAt)}</AlertTitle>
      <AlertDescription>
        <p>
          <span className="sr-only">Time left: </span>
          <span className="font-semibold tabular-nums text-navy-900" aria-hidden={!opened || undefined}>
            {opened ? 'Opening now…' : `in ${formatWaitLeft(left)}`}
          </span>
          . Use the wait to go over the training.
        </p>
      </AlertDescription>
    </Alert>
  );
}

/**
 * Before an attempt: what the test asks, the attempts left, and the way on: Start (which uses an
 * attempt), the wait with its countdown, or why the test is closed, plainly.
 */
function TestOverview({ status, courseId, onStart, onRecheck }: { status: TTestStatus; courseId: string; onStart: () => void; onRecheck: () => void }) {
  const { state, test, lastResult } = status;
  const closed = state === 'exhausted' || state === 'training';
  // The course asks for an approved seafarer profile first: no Start until it is.
  const blocked = state !== 'passed' && state !== 'inProgress' ? status.blocked : undefined;
  return (
    <section aria-labelledby="test-overview-heading" className="mt-8 rounded-xl border border-border bg-card p-6 shadow-card sm:p-8">
      <h2 id="test-overview-heading" className="sr-only">
        About this test
      </h2>
      {test && (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Fact label="Questions">{test.questionCount}</Fact>
          <Fact label="Pass mark">{test.passMark}%</Fact>
          <Fact label="Attempts left">
            {status.attemptsLeft} <span className="text-sm font-normal text-muted-foreground">of {status.attemptsAllowed}</span>
          </Fact>
          <Fact label="Wait between attempts">{test.waitMinutes === 0 ? 'None' : `${test.waitMinutes} min`}</Fact>
        </dl>
      )}

      {lastResult && (
        <p className="mt-5 text-sm text-muted-foreground">
          Your last attempt: <span className="font-semibold text-navy-900">{lastResult.score} of {lastResult.totalQuestions}</span> ({lastResult.percentage}%),{' '}
          {lastResult.passed ? 'passed' : 'not passed'}, on {formatDateTime(lastResult.submittedAt)}.
        </p>
      )}

      {state === 'waiting' && status.nextAttemptAt && <WaitNotice nextAttemptAt={status.nextAttemptAt} onOpen={onRecheck} />}

      {(closed || state === 'passed') && (
        <Alert variant={state === 'passed' ? 'success' : 'default'} className="mt-6">
          {state === 'passed' ? <Award aria-hidden /> : <Lock aria-hidden />}
          <AlertTitle>{state === 'passed' ? 'You passed this test' : state === 'exhausted' ? 'The test is closed for now' : 'The test is not open yet'}</AlertTitle>
          <AlertDescription>
            <p>{status.message}</p>
          </AlertDescription>
        </Alert>
      )}

      {blocked && <ProfileRequired message={blocked.message} className="mt-6" />}

      {((state === 'open' && !blocked) || state === 'inProgress') && (
        <p className="mt-6 text-sm text-muted-foreground">
          {state === 'open'
            ? 'Each attempt draws its questions for you and shows them, and their options, in a new order. Starting uses one attempt; the time runs from the start.'
            : status.message}
        </p>
      )}

      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {state === 'open' && !blocked && (
          <Button size="lg" onClick={onStart}>
            <PlayCircle aria-hidden />
            Start attempt {status.attemptsUsed + 1} of {status.attemptsAllowed}
          </Button>
        )}
        {state === 'inProgress' && (
          <Button size="lg" onClick={onStart}>
            <RotateCw aria-hidden />
            Resume your attempt
          </Button>
        )}
        {state === 'passed' && (
          <Button asChild size="lg">
            <Link to={paths.courseCertificate(courseId)}>
              <FileBadge aria-hidden />
              View Certificate
            </Link>
          </Button>
        )}
        {closed && (
          <GoToTraining courseId={courseId} />
        )}
        <Button asChild size="lg" variant="outline">
          <Link to={paths.courseContent(courseId)}>Back to the course</Link>
        </Button>
      </div>
    </section>
  );
}

/** The course's test opens only to a complete, approved seafarer profile: why, and the way to the profile. */
function ProfileRequired({ message, className }: { message: string; className?: string }) {
  return (
    <Alert variant="warning" className={className}>
      <UserRoundCheck aria-hidden />
      <AlertTitle>Your seafarer profile is needed first</AlertTitle>
      <AlertDescription>
        <p>{message}</p>
        <Button asChild size="sm" className="mt-3">
          <Link to={paths.profile}>Go to your profile</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}

type TMode = 'auto' | 'overview' | 'taking';

/**
 * /testPage/{courseId}: the course's multiple-choice test. The page first reads where the learner
 * stands (tests.status): it starts an attempt (tests.take) only when the learner presses Start, or
 * resumes one already open as it opens. The server keeps the policy; the page only says it.
 */
export function TestPage() {
  const { courseId = '' } = useParams();
  const status = useTestStatus(courseId);
  const [mode, setMode] = useState<TMode>('auto');
  const session = useOpenAttempt();
  const data = session.data;
  useDocumentTitle(data ? `Test: ${data.test.course.title}` : 'Test');

  const openAttempt = session.mutate;
  const start = useCallback(() => {
    setMode('taking');
    openAttempt({ courseId });
  }, [openAttempt, courseId]);

  // The first reading decides, once: an open attempt is resumed; otherwise the overview. (Set
  // while rendering, React's way for state that follows a value, so no frame shows the wrong one.)
  const resuming = mode === 'auto' && status.data?.state === 'inProgress';
  if (mode === 'auto' && status.data && !resuming) setMode('overview');
  // Resuming hands back the open attempt; the ref keeps a remounted effect from asking twice.
  const resumed = useRef(false);
  useEffect(() => {
    if (!resuming || resumed.current) return;
    resumed.current = true;
    start();
  }, [resuming, start]);

  const refetchStatus = status.refetch;
  const recheck = useCallback(() => void refetchStatus(), [refetchStatus]);
  async function backToOverview() {
    await refetchStatus();
    // Forgotten: only Start asks for an attempt again.
    setMode('overview');
    session.reset();
    window.scrollTo({ top: 0 });
  }

  const title = data?.test.title ?? status.data?.test?.title;
  let body;
  if (mode === 'taking') {
    if (session.isError) {
      const code = httpStatusOf(session.error);
      // Refused now (the wait, the attempts, a pass elsewhere): the reason, and the overview again;
      // the profile the course requires: the way to the profile.
      const refusal = errorMessage(session.error, { fallback: T.somethingWrong });
      body =
        code === 403 && refusal === MESSAGES.courseCertificate.profileRequired ? (
          <ProfileRequired message={refusal} className="mt-8" />
        ) : code === 403 || code === 409 || code === 429 ? (
          <Alert variant="warning" className="mt-8">
            <AlertCircle aria-hidden />
            <AlertTitle>{refusal}</AlertTitle>
            <AlertDescription>
              <Button type="button" variant="outline" size="sm" className="mt-2" onClick={() => void backToOverview()}>
                Back to the test overview
              </Button>
            </AlertDescription>
          </Alert>
        ) : (
          <div className="mt-8">
            <LoadError title={T.loadFailed} message={errorMessage(session.error, { fallback: T.loadFailed })} onRetry={start} retrying={session.isPending} />
          </div>
        );
    } else if (data) {
      body = <TestTaking key={data.attempt.id} session={data} onReopen={start} onDone={() => void backToOverview()} />;
    } else {
      // Opening (or waiting for the connection to open it).
      body = <TestSkeleton />;
    }
  } else if (status.isPending || mode === 'auto') {
    body = status.isError ? null : <TestSkeleton />;
  } else if (status.isError) {
    body = null;
  } else if (status.data.state === 'noTest') {
    body = null;
  } else {
    body = <TestOverview status={status.data} courseId={courseId} onStart={start} onRecheck={recheck} />;
  }

  if (status.isError && mode !== 'taking') {
    const code = httpStatusOf(status.error);
    if (code === 403) {
      const refusal = errorMessage(status.error, { fallback: T.notEnrolled });
      return (
        <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
          {refusal === MESSAGES.courseCertificate.profileRequired ? (
            <ProfileRequired message={refusal} />
          ) : (
            <Unavailable icon={Lock} title="The test is not open to you" message={refusal} courseId={courseId} toTraining={false} />
          )}
        </div>
      );
    }
    if (code === 404 || code === 400) return <NoTest courseId={courseId} />;
    body = (
      <div className="mt-8">
        <LoadError title={T.loadFailed} message={errorMessage(status.error, { fallback: T.loadFailed })} onRetry={() => void status.refetch()} retrying={status.isFetching} />
      </div>
    );
  }
  if (mode !== 'taking' && status.data?.state === 'noTest') return <NoTest courseId={courseId} />;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
      <BackLink to={paths.courseContent(courseId)}>Back to the course</BackLink>
      <header className="mt-4">
        <p className="flex items-center gap-1.5 text-sm font-semibold tracking-wider text-sea-700 uppercase">
          <ClipboardCheck className="size-4" aria-hidden />
          Course test
        </p>
        {title ? (
          <>
            <h1 id="test-title" className="mt-1 text-2xl font-bold tracking-tight break-words text-navy-900 sm:text-3xl">
              {title}
            </h1>
            {data && data.test.title !== data.test.course.title && <p className="mt-1 text-muted-foreground">{data.test.course.title}</p>}
          </>
        ) : status.isPending || session.isPending ? (
          <Skeleton className="mt-2 h-8 w-2/3" />
        ) : (
          <h1 id="test-title" className="mt-1 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">
            Course test
          </h1>
        )}
      </header>
      {body}
    </div>
  );
}

/** No published test for the course, or no such course (a mistyped address reads the same). */
function NoTest({ courseId }: { courseId: string }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
      <Unavailable icon={FileQuestion} title={T.noneForCourse} message="The academy has not published this course's test yet. Please check again later." courseId={courseId} toTraining={false} />
    </div>
  );
}

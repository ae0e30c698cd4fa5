import {
  Award,
  BookOpenCheck,
  CheckCircle2,
  CircleDashed,
  ClipboardCheck,
  Clock,
  CloudUpload,
  Hourglass,
  Lock,
  PlayCircle,
  RotateCw,
  Send,
  WifiOff,
  type LucideIcon,
} from 'lucide-react';
import { type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestStatus } from '../../../shared/schemas/tests.ts';
import type { TCourseHome, TProgress, TTrainingVideo } from '../../../shared/schemas/enrolment.ts';
import { paths } from '@/config/paths.ts';
import { CourseImage } from '@/components/course/course-image.tsx';
import { LoadError } from '@/components/lists/list-states.tsx';
import { BackLink } from '@/components/navigation/back-link.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCourseHome } from '@/features/enrolments/api/use-course-home.ts';
import { useOfflineApi } from '@/features/enrolments/api/use-offline-api.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { useTestStatus } from '@/lib/api/tests.ts';
import { useSubmitTraining } from '@/lib/api/training.ts';
import { formatClockTime, formatRupees } from '@/lib/format.ts';
import { lazyNamed } from '@/lib/lazy-component.tsx';
import { partsOnDevice, progressOfParts } from '@/lib/offline/device-progress.ts';
import type { TStoredRecord } from '@/lib/offline/offline-db.ts';
import { OfflineWatchingStatus } from '@/lib/offline/offline-watching-status.tsx';
import { useCourseRecords } from '@/lib/offline/use-course-records.ts';
import { useDownloadsUpkeep } from '@/lib/offline/use-downloads-upkeep.ts';
import { useOnline } from '@/lib/offline/use-online.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** The download panel's code (IndexedDB, the download loop) comes once a course home is open, never with the public catalogue that shares its file. */
const OfflineDownloadPanel = lazyNamed(() => import('@/features/enrolments/offline-download-panel.tsx'), 'OfflineDownloadPanel');

const T = MESSAGES.training;

/** Offline, in place of the way to the test. */
const TEST_NEEDS_CONNECTION = 'The test needs a connection: its questions never come to this device before you start.';

/** A part as this device may show it: the server's record with the device's own watching counted. */
type TPartHere = TTrainingVideo & { waitingToBeSent: boolean };

/** The course's training as this device may show it (lib/offline/device-progress.ts, as the player shows it). */
type TTrainingHere = {
  videos: TPartHere[];
  progress: TProgress;
  /** Parts completed by watching on this device that the server has not taken in yet. */
  waitingParts: number;
  /** Every part completed on the server's record: the training may be submitted. */
  completedOnServer: boolean;
};

function trainingHere(home: TCourseHome, records: readonly TStoredRecord[]): TTrainingHere {
  const served = home.training?.videos ?? [];
  const onDevice = partsOnDevice(served, records);
  const videos = served.map((video, index) => {
    const part = onDevice[index]!;
    return { ...video, completed: part.completed, locked: part.locked, waitingToBeSent: part.waitingToBeSent };
  });
  return {
    videos,
    // The server's own figures until the device adds a part to them.
    progress: videos.some((video) => video.waitingToBeSent) ? progressOfParts(videos) : home.progress,
    waitingParts: videos.filter((video) => video.waitingToBeSent).length,
    completedOnServer: served.length > 0 && served.every((video) => video.completed),
  };
}

/** A part's length: "45 s" under a minute, else whole minutes ("7 min"). */
function formatMinutes(seconds: number | null): string | null {
  if (seconds === null) return null;
  if (seconds < 59.5) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

function VideoState({ video }: { video: TTrainingVideo }) {
  if (video.completed) {
    return (
      <Badge variant="success">
        <CheckCircle2 aria-hidden />
        Completed
      </Badge>
    );
  }
  if (!video.ready) {
    return (
      <Badge variant="outline">
        <Hourglass aria-hidden />
        Being prepared
      </Badge>
    );
  }
  if (video.locked) {
    return (
      <Badge variant="default">
        <Lock aria-hidden />
        Locked
      </Badge>
    );
  }
  return (
    <Badge variant="warning">
      <PlayCircle aria-hidden />
      Up next
    </Badge>
  );
}

function TrainingParts({ videos }: { videos: readonly TPartHere[] }) {
  if (videos.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border bg-muted px-4 py-6 text-center text-sm text-muted-foreground">
        The academy has not published the training videos for this course yet. They will appear here.
      </p>
    );
  }
  return (
    <ol className="divide-y divide-border overflow-hidden rounded-lg border border-border">
      {videos.map((video) => {
        const minutes = formatMinutes(video.durationSeconds);
        return (
          <li key={video.id} className="flex items-center gap-3 bg-card px-4 py-3">
            <span
              className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                video.completed ? 'bg-green-50 text-success' : 'bg-navy-50 text-navy-800'
              }`}
              aria-hidden
            >
              {video.serial}
            </span>
            <div className="min-w-0 flex-1">
              <p className="font-medium text-navy-900">
                <span className="sr-only">Part {video.serial}: </span>
                {video.title}
              </p>
              {minutes && <p className="text-xs text-muted-foreground">{minutes}</p>}
              {video.waitingToBeSent && (
                <p className="mt-0.5 flex items-start gap-1 text-xs font-medium text-sea-800">
                  <CloudUpload className="mt-px size-3.5 shrink-0" aria-hidden />
                  Played on this device, waiting to be sent
                </p>
              )}
            </div>
            <VideoState video={video} />
          </li>
        );
      })}
    </ol>
  );
}

type StepProps = {
  number: number;
  icon: LucideIcon;
  title: string;
  text: string;
  done?: boolean;
  /** Open to the learner; by default, when it has something to do (children). */
  available?: boolean;
  /** A line under the text (the test's note while offline). */
  note?: ReactNode;
  children?: ReactNode;
};

function Step({ number, icon: Icon, title, text, done = false, available = false, note, children }: StepProps) {
  available ||= children !== undefined;
  return (
    <li
      className={`flex gap-4 rounded-xl border p-5 ${available ? 'border-sea-200 bg-sea-50/60' : 'border-border bg-muted'}`}
      aria-disabled={available ? undefined : true}
    >
      <span
        className={`flex size-11 shrink-0 items-center justify-center rounded-lg ${
          available ? 'bg-navy-900 text-sea-300' : 'bg-navy-100 text-navy-500'
        }`}
      >
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">Step {number}</p>
        <h3 className="mt-0.5 flex flex-wrap items-center gap-2 font-semibold text-navy-900">
          {title}
          {done && (
            <Badge variant="success">
              <CheckCircle2 aria-hidden />
              Done
            </Badge>
          )}
          {!available && (
            <Badge variant="outline">
              <Lock aria-hidden />
              Not available yet
            </Badge>
          )}
        </h3>
        <p className="mt-1 text-sm text-muted-foreground">{text}</p>
        {note}
        {children && <div className="mt-3">{children}</div>}
      </div>
    </li>
  );
}

const attemptsLeftText = (standing: TTestStatus) =>
  `${standing.attemptsLeft} of ${standing.attemptsAllowed} attempt${standing.attemptsAllowed === 1 ? '' : 's'} left`;

/** Standings that only follow a submitted training: Submit Training is behind the learner then. */
const SUBMITTED_STATES: ReadonlySet<TTestStatus['state'] | undefined> = new Set(['open', 'inProgress', 'waiting', 'passed']);

/** Why something cannot be done with no link, in place of the button that would do it. */
function NeedsConnection({ children }: { children: ReactNode }) {
  return (
    <p className="mt-3 flex items-start gap-2 text-sm font-medium text-navy-900">
      <WifiOff className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
      {children}
    </p>
  );
}

type TTestStepProps = {
  courseId: string;
  standing: TTestStatus | undefined;
  online: boolean;
  /** The course's training set and when it was submitted; null without training. */
  training: TCourseHome['training'];
  here: TTrainingHere;
};

/**
 * Step 2, as the learner stands with the test: Submit Training once every part is completed on the
 * server's record (as the player offers it), the way to the test with the attempts left, when it
 * opens next, or why it is closed.
 */
function TestStep({ courseId, standing, online, training, here }: TTestStepProps) {
  const submit = useSubmitTraining(courseId);
  const result = useRef<HTMLParagraphElement>(null);
  // The button goes once the submission is recorded: the focus goes to its result, just before the way to the test.
  useEffect(() => {
    if (submit.isSuccess) result.current?.focus();
  }, [submit.isSuccess]);
  const test = standing?.test;
  const facts = test ? `${test.questionCount} question${test.questionCount === 1 ? '' : 's'}, pass mark ${test.passMark}%` : '';
  // Offline, the way to the test gives way to why it cannot be taken here and now.
  const offlineNote = online ? undefined : <NeedsConnection>{TEST_NEEDS_CONNECTION}</NeedsConnection>;
  const submitted = submit.isSuccess ? (
    <p ref={result} tabIndex={-1} role="status" className="mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm font-medium text-success outline-none">
      {T.submitted}
    </p>
  ) : undefined;

  const notSubmitted = training !== null && training.submittedAt === null && !submit.isSuccess && !SUBMITTED_STATES.has(standing?.state);
  if (notSubmitted && here.completedOnServer) {
    const attempts = test && standing ? `, ${standing.attemptsAllowed} attempt${standing.attemptsAllowed === 1 ? '' : 's'}` : '';
    const text = test
      ? `Every training part is completed. Submit the training to open the test: ${facts}${attempts}.`
      : standing?.state === 'noTest'
        ? 'Every training part is completed. Submit the training to record it; the test opens here once the academy publishes it.'
        : 'Every training part is completed. Submit the training to record it, then take the test.';
    return (
      <Step number={2} icon={ClipboardCheck} title="Test" text={text} available>
        {online ? (
          <div className="grid gap-2">
            <Button
              className="w-full sm:w-auto sm:justify-self-start"
              onClick={() => submit.mutate({ setId: training.setId })}
              disabled={submit.isPending}
              aria-busy={submit.isPending || undefined}
            >
              {submit.isPending ? <RotateCw className="animate-spin" aria-hidden /> : <Send aria-hidden />}
              Submit Training
            </Button>
            {submit.isError && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errorMessage(submit.error, { fallback: T.submitFailed, network: T.submitApiError })}
              </p>
            )}
          </div>
        ) : (
          <NeedsConnection>{T.submitNeedsConnection}</NeedsConnection>
        )}
      </Step>
    );
  }
  if (notSubmitted && here.videos.length > 0 && here.videos.every((video) => video.completed)) {
    return <Step number={2} icon={ClipboardCheck} title="Test" text={T.completedOnDevice} />;
  }

  const link = (label: string, variant: 'default' | 'outline' = 'default') =>
    offlineNote ?? (
      <Button asChild variant={variant} className="w-full sm:w-auto">
        <Link to={paths.testPage(courseId)}>
          <ClipboardCheck aria-hidden />
          {label}
        </Link>
      </Button>
    );
  const closed = 'The course test opens once you have completed every training part. You will see it here.';
  switch (standing?.state) {
    case 'open':
      return (
        <Step number={2} icon={ClipboardCheck} title="Test" text={`The test is open: ${facts}. You have ${attemptsLeftText(standing)}.`} note={submitted}>
          {link('Take the test')}
        </Step>
      );
    case 'inProgress':
      return (
        <Step number={2} icon={ClipboardCheck} title="Test" text={`You have an attempt in progress (${facts}).`}>
          {link('Resume the test')}
        </Step>
      );
    case 'waiting':
      return (
        <Step
          number={2}
          icon={ClipboardCheck}
          title="Test"
          text={`Your next attempt opens at ${formatClockTime(standing.nextAttemptAt!)}. You have ${attemptsLeftText(standing)}.`}
        >
          {link('Open the test page', 'outline')}
        </Step>
      );
    case 'exhausted':
      return (
        <Step number={2} icon={ClipboardCheck} title="Test" text={standing.message}>
          <Button asChild variant="outline" className="w-full sm:w-auto">
            <Link to={paths.training(courseId)}>
              <PlayCircle aria-hidden />
              Watch the training again
            </Link>
          </Button>
        </Step>
      );
    case 'passed':
      return (
        <Step
          number={2}
          icon={ClipboardCheck}
          title="Test"
          done
          available
          text={standing.lastResult?.passed ? `You passed with ${standing.lastResult.percentage}%.` : 'You passed the test.'}
        >
          {online ? link('See the test', 'outline') : undefined}
        </Step>
      );
    case 'noTest':
      return (
        <Step
          number={2}
          icon={ClipboardCheck}
          title="Test"
          text="The academy has not published this course's test yet. It will open here."
          note={submitted ?? offlineNote}
        />
      );
    default:
      return <Step number={2} icon={ClipboardCheck} title="Test" text={submitted ? 'The test opens here.' : closed} note={submitted ?? offlineNote} />;
  }
}

function CourseHome({ home }: { home: TCourseHome }) {
  const standing = useTestStatus(home.course.id).data;
  const online = useOnline();
  const [userId] = useState(() => readStoredUser()?._id ?? null);
  const passed = standing?.state === 'passed';
  const { course } = home;
  // The device's own watching counted, as the player counts it: offline the course home shows what was played here.
  const records = useCourseRecords(userId, course.id);
  const here = useMemo(() => trainingHere(home, records ?? []), [home, records]);
  const { progress } = here;
  const hasVideos = here.videos.length > 0;
  const hasReadyVideos = here.videos.some((video) => video.ready);
  const finished = hasVideos && progress.completedVideos >= progress.totalVideos;
  const started = progress.completedVideos > 0;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6">
      <BackLink to={paths.dashboard}>Back to dashboard</BackLink>

      <header className="mt-4 grid gap-6 overflow-hidden rounded-2xl border border-border bg-card shadow-card md:grid-cols-[minmax(0,1fr)_320px]">
        <div className="p-6 sm:p-8">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{course.category}</Badge>
            <Badge variant="success">
              <BookOpenCheck aria-hidden />
              Enrolled
            </Badge>
            {!course.isActive && <Badge variant="default">No longer open to new learners</Badge>}
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">{course.title}</h1>
          <p className="mt-3 leading-relaxed whitespace-pre-line text-muted-foreground">{course.description}</p>
          <dl className="mt-5 flex flex-wrap gap-x-8 gap-y-2 text-sm">
            <div className="flex items-center gap-2">
              <Clock className="size-4 text-sea-700" aria-hidden />
              <dt className="text-muted-foreground">Duration</dt>
              <dd className="font-semibold text-navy-900">{course.duration}</dd>
            </div>
            <div className="flex items-center gap-2">
              <dt className="text-muted-foreground">Price</dt>
              <dd className="font-semibold text-navy-900">{formatRupees(course.price)}</dd>
            </div>
          </dl>
        </div>
        <CourseImage image={course.image} eager className="order-first h-48 md:order-none md:h-full" />
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_360px]">
        <div className="grid content-start gap-8">
          <section aria-labelledby="progress-heading" className="rounded-xl border border-border bg-card p-6 shadow-card">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="progress-heading" className="text-lg font-semibold text-navy-900">
                Your progress
              </h2>
              <p className="text-sm text-muted-foreground">
                {hasVideos
                  ? `${progress.completedVideos} of ${progress.totalVideos} training parts completed`
                  : 'No training parts yet'}
              </p>
            </div>
            <Progress value={progress.percent} className="mt-4" aria-label={`Training completed: ${progress.percent}%`} />
            <p className="mt-2 text-sm font-semibold text-navy-900">{progress.percent}%</p>
            {here.waitingParts > 0 && (
              <p className="mt-3 flex items-start gap-2 rounded-lg bg-sea-50 px-3 py-2 text-sm text-navy-900">
                <CloudUpload className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
                {here.waitingParts === 1 ? '1 part completed on this device is' : `${here.waitingParts} parts completed on this device are`}{' '}
                waiting to be sent. They count once the academy has them.
              </p>
            )}
          </section>

          <Suspense fallback={null}>
            <OfflineDownloadPanel courseId={course.id} userId={userId} hasVideos={hasReadyVideos} />
          </Suspense>
          {records && <OfflineWatchingStatus records={records} className="-mt-5" />}

          <section aria-labelledby="training-heading">
            <h2 id="training-heading" className="text-lg font-semibold text-navy-900">
              {home.training?.title ?? 'Training'}
            </h2>
            <p className="mt-1 mb-4 text-sm text-muted-foreground">
              Watch the parts in order: each one unlocks when the one before it is completed.
            </p>
            <TrainingParts videos={here.videos} />
          </section>

          {course.subjects.length > 0 && (
            <section aria-labelledby="subjects-heading">
              <h2 id="subjects-heading" className="text-lg font-semibold text-navy-900">
                What this course covers
              </h2>
              <ul className="mt-4 grid gap-2 sm:grid-cols-2">
                {course.subjects.map((subject, index) => (
                  <li key={`${index}-${subject}`} className="flex items-start gap-2 text-sm text-navy-900">
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-sea-700" aria-hidden />
                    {subject}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>

        <aside aria-labelledby="steps-heading">
          <h2 id="steps-heading" className="text-lg font-semibold text-navy-900">
            Your way through the course
          </h2>
          <ol className="mt-4 grid gap-4">
            <Step
              number={1}
              icon={PlayCircle}
              title="Training"
              done={finished}
              text={
                hasVideos
                  ? finished
                    ? `You have completed every training part${here.waitingParts > 0 ? ' on this device' : ''}. You can watch them again at any time.`
                    : 'Watch the training videos in order. Your progress is saved as you watch.'
                  : 'The training opens once the academy has published its videos.'
              }
            >
              {hasVideos ? (
                // Once the training is done, the next step's action is the one to take.
                <Button asChild variant={finished ? 'outline' : 'default'} className="w-full sm:w-auto">
                  <Link to={paths.training(course.id)}>
                    <PlayCircle aria-hidden />
                    {finished ? 'Review the training' : started ? 'Continue the training' : 'Start the training'}
                  </Link>
                </Button>
              ) : undefined}
            </Step>
            <TestStep courseId={course.id} standing={standing} online={online} training={home.training} here={here} />
            {passed ? (
              <Step number={3} icon={Award} title="Certificate" text="Your certificate has been issued. Download it, or check its details, from Reports.">
                <Button asChild className="w-full sm:w-auto">
                  <Link to={paths.courseCertificate(course.id)}>
                    <Award aria-hidden />
                    View Certificate
                  </Link>
                </Button>
              </Step>
            ) : (
              <Step
                number={3}
                icon={Award}
                title="Certificate"
                text="Your certificate is issued when you pass the test, and can then be downloaded here and from Reports."
              />
            )}
          </ol>
        </aside>
      </div>
    </div>
  );
}

function CourseHomeSkeleton() {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6" aria-busy>
      <span role="status" className="sr-only">
        Loading the course…
      </span>
      <Skeleton className="h-5 w-40" />
      <Skeleton className="mt-4 h-56 w-full rounded-2xl" />
      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_360px]">
        <Skeleton className="h-64 rounded-xl" />
        <Skeleton className="h-64 rounded-xl" />
      </div>
    </div>
  );
}

/** When the course is missing, or this learner's enrolment in it is not approved (the server says 404 for both). */
function CourseNotAvailable() {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-20 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-sea-50 text-sea-700 ring-1 ring-sea-100">
        <CircleDashed className="size-8" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-navy-900">This course is not available to you</h1>
      <p className="mt-3 text-muted-foreground">
        A course opens here once the academy has approved your enrolment in it. Request the course from your
        dashboard, or check the status of your requests.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild size="lg">
          <Link to={paths.dashboard}>Go to your dashboard</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.enrolmentRequests}>Your requests</Link>
        </Button>
      </div>
    </div>
  );
}

/** /courses/{id}/content: the course home of a learner whose enrolment is approved. */
export function CourseContentPage() {
  const { courseId = '' } = useParams();
  const home = useCourseHome(courseId);
  // Opening a course home online: downloads whose enrolment ended leave the device (this one too,
  // when the course is no longer available), unfinished ones carry on.
  const [userId] = useState(() => readStoredUser()?._id ?? null);
  useDownloadsUpkeep(useOfflineApi(), userId);
  useDocumentTitle(home.data?.course.title ?? 'Course');

  if (home.isPending) return <CourseHomeSkeleton />;
  if (home.isError) {
    const status = httpStatusOf(home.error);
    // A malformed id is as unavailable as a missing one.
    if (status === 404 || status === 400) return <CourseNotAvailable />;
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6">
        <LoadError
          title={MESSAGES.courses.visitorLoadFailed}
          message={errorMessage(home.error, { fallback: MESSAGES.common.internal })}
          onRetry={() => void home.refetch()}
          retrying={home.isFetching}
        />
      </div>
    );
  }
  return <CourseHome home={home.data} />;
}

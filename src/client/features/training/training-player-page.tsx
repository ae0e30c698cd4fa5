import { AlertCircle, CheckCircle2, ClipboardCheck, HardDrive, Hourglass, Lock, RotateCw, Send, Video, WifiOff } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { DELAY_AFTER_SUCCESS_MS, TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { THeartbeatResult, TPlayerVideo, TTrainingPlayer } from '../../../shared/schemas/training.ts';
import { paths } from '@/config/paths.ts';
import { LoadError } from '@/components/lists/list-states.tsx';
import { BackLink } from '@/components/navigation/back-link.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useTrainingPlayer } from '@/features/training/api/use-training-player.ts';
import { playerFromPackage, withLocalCredit } from '@/features/training/offline-view.ts';
import { PartList } from '@/features/training/part-list.tsx';
import { storeProgress } from '@/features/training/progress-storage.ts';
import { QualityChoice } from '@/features/training/quality-choice.tsx';
import {
  type TQualityPreference,
  browserConnection,
  chooseSource,
  readQualityPreference,
  writeQualityPreference,
} from '@/features/training/quality.ts';
import { useDeviceCourse, useDeviceMedia } from '@/features/training/use-device-course.ts';
import { useWatchReports } from '@/features/training/use-watch-reports.ts';
import { errorMessage, httpStatusOf, serverAnswered } from '@/lib/api-errors.ts';
import { useSubmitTraining } from '@/lib/api/training.ts';
import { formatDay } from '@/lib/format.ts';
import { isPartStored } from '@/lib/offline/downloads.ts';
import type { TStoredDownload, TStoredRecord } from '@/lib/offline/offline-db.ts';
import { OfflineWatchingStatus } from '@/lib/offline/offline-watching-status.tsx';
import { useCourseRecords } from '@/lib/offline/use-course-records.ts';
import { useOnline } from '@/lib/offline/use-online.ts';
import { useShowsDeviceCopy } from '@/lib/pwa/device-copy.ts';
import { recordsOfCourse } from '@/lib/offline/watch-records.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { trpc } from '@/lib/trpc.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useStableUrl } from '@/lib/use-stable-url.ts';

const T = MESSAGES.training;
/** A media error within this long of the last new link is not an expired link: say the video failed. */
const RELINK_GRACE_MS = 15_000;
/** Closer than this to the end (seconds, or a tenth of a short part), a part starts again instead of resuming. */
const RESUME_END_MARGIN_SECONDS = 2;
const resumeMargin = (duration: number) => Math.min(RESUME_END_MARGIN_SECONDS, duration / 10);

/** Where (and whether to play) once the player has loaded a part or a new link for it. */
type TResume = { videoId: string; position: number; play: boolean };

function playablePart(player: TTrainingPlayer, id: string | null): TPlayerVideo | undefined {
  const chosen = player.videos.find((video) => video.id === id);
  if (chosen && !chosen.locked && chosen.ready) return chosen;
  return player.videos[player.currentIndex];
}

type TTrainingPlayerProps = {
  /** The parts as this device may show them: the server's record with the device's own records counted. */
  player: TTrainingPlayer;
  /** The server's record afresh, the device's records counted; undefined without a link. */
  reload: () => Promise<TTrainingPlayer | undefined>;
  /** The parts as the device now has them, without asking the server (no link). */
  local: () => Promise<TTrainingPlayer>;
  /** Whether every part is completed on the server's record (submitting and the test need it). */
  serverCompleted: boolean;
  /** The course kept on this device, if it is. */
  download: TStoredDownload | null;
  records: readonly TStoredRecord[];
  userId: string | null;
  /** No link to the server (the browser says so, or the server could not be reached). */
  offline: boolean;
};

/** The part in the player with its size choice, the reports of what is watched and the move to the next part. */
function TrainingPlayer({ player, reload, local, serverCompleted, download, records, userId, offline }: TTrainingPlayerProps) {
  const courseId = player.course.id;
  const utils = trpc.useUtils();
  const [selectedId, setSelectedId] = useState<string | null>(() => player.videos[player.currentIndex]?.id ?? null);
  const part = playablePart(player, selectedId);
  const partIndex = part ? player.videos.indexOf(part) : -1;
  const [preference, setPreference] = useState<TQualityPreference>(() => readQualityPreference(window.localStorage));
  const [connection] = useState(browserConnection);
  // A part kept on the device plays from it (a Blob URL), with or without a link; the others stream.
  const onDevice = Boolean(download && part && !part.locked && isPartStored(download, part.id));
  const deviceMedia = useDeviceMedia(download, onDevice && part ? part.id : null);
  // Without a link a stream cannot play: the part says it is not on the device instead of failing.
  const source = part && part.ready && !part.locked && !onDevice && !offline ? chooseSource(part.sources, preference, connection) : undefined;
  const [streamSrc, renewSrc] = useStableUrl(`${part?.id ?? ''}:${source?.height ?? ''}`, source?.url);
  const [streamPoster] = useStableUrl(part?.id ?? '', part?.posterUrl ?? undefined);
  const src = onDevice ? deviceMedia?.src : streamSrc;
  const poster = onDevice ? deviceMedia?.poster : streamPoster;
  const device =
    onDevice && download && userId
      ? { userId, courseId, downloadId: download.package.downloadId, recordKey: download.package.recordKey }
      : null;
  const videoRef = useRef<HTMLVideoElement>(null);
  const playerRegion = useRef<HTMLElement>(null);
  const resume = useRef<TResume | null>(part ? { videoId: part.id, position: part.resumeAt, play: false } : null);
  const lastRelinkAt = useRef(0);
  const [mediaFailed, setMediaFailed] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const submit = useSubmitTraining(courseId);
  const delayedNavigate = useDelayedNavigate();

  // The spec's keys follow the server's record and the part in the player.
  useEffect(() => {
    if (partIndex >= 0) storeProgress(window.localStorage, player, partIndex);
  }, [player, partIndex]);

  function onAnswer(answer: THeartbeatResult) {
    const before = player.videos.find((video) => video.id === answer.videoId);
    utils.training.player.setData({ courseId }, (old) =>
      old
        ? {
            ...old,
            progress: answer.progress,
            allCompleted: answer.allCompleted,
            videos: old.videos.map((video) =>
              video.id === answer.videoId ? { ...video, watchedSeconds: answer.watchedSeconds, completed: answer.completed } : video,
            ),
          }
        : old,
    );
    // A part just completed unlocks the next one: the server says which, with its links.
    if (answer.completed && before && !before.completed) void reload();
  }

  async function onEnded(videoId: string) {
    // Played without a link: the device's records decide, as the server will once they are sent.
    const fresh = reports.isRecordingOffline() || offline ? await local() : await reload();
    if (!fresh) return;
    const index = fresh.videos.findIndex((video) => video.id === videoId);
    const ended = fresh.videos[index];
    if (!ended) return;
    if (!ended.completed) {
      const watched = ended.durationSeconds ? Math.floor((ended.watchedSeconds / ended.durationSeconds) * 100) : 0;
      setAnnouncement(`Part ${ended.serial} is not completed yet: ${watched}% of it has been watched. Play the parts you skipped to complete it.`);
      return;
    }
    const next = fresh.videos[index + 1];
    if (next && !next.locked && next.ready) {
      resume.current = { videoId: next.id, position: next.resumeAt, play: true };
      setSelectedId(next.id);
      setAnnouncement(`Part ${ended.serial} completed. Now playing part ${next.serial}: ${next.title}.`);
    } else if (fresh.videos.every((video) => video.completed)) {
      setAnnouncement(
        fresh.submittedAt
          ? 'Every part is completed.'
          : fresh.allCompleted
            ? 'Every part is completed. You can now submit the training.'
            : 'Every part is completed on this device. Your watching is sent when you are back online; then you can submit the training.',
      );
    } else {
      setAnnouncement(`Part ${ended.serial} completed.`);
    }
  }

  const reports = useWatchReports({ part: part ? { id: part.id } : null, onAnswer, onEnded, device });

  function select(video: TPlayerVideo) {
    if (video.id === part?.id) {
      void videoRef.current?.play().catch(() => undefined);
      return;
    }
    resume.current = { videoId: video.id, position: video.resumeAt, play: true };
    setMediaFailed(false);
    setSelectedId(video.id);
    setAnnouncement(`Playing part ${video.serial}: ${video.title}.`);
    // On a phone the list is under the player: bring the player into view.
    const region = playerRegion.current?.getBoundingClientRect();
    if (region && region.top < 0) playerRegion.current?.scrollIntoView({ block: 'start' });
  }

  function changeQuality(next: TQualityPreference) {
    const video = videoRef.current;
    if (video && part) resume.current = { videoId: part.id, position: video.currentTime, play: !video.paused };
    setPreference(next);
    writeQualityPreference(window.localStorage, next);
  }

  function onLoadedMetadata() {
    const video = videoRef.current;
    const wanted = resume.current;
    if (!video || !part || wanted?.videoId !== part.id) return;
    resume.current = null;
    if (wanted.position > 0 && wanted.position < video.duration - resumeMargin(video.duration)) video.currentTime = wanted.position;
    if (wanted.play) void video.play().catch(() => undefined);
  }

  /** The stream link expired (they last hours) or the stream broke: fresh links, and on from the same place. */
  async function onMediaError() {
    if (!part) return;
    // A Blob on the device does not expire: a failure there is the media's.
    if (onDevice) {
      setMediaFailed(true);
      return;
    }
    const position = reports.lastPosition(part.id) ?? part.resumeAt;
    const wasPlaying = reports.isPlaying();
    if (Date.now() - lastRelinkAt.current < RELINK_GRACE_MS) {
      setMediaFailed(true);
      return;
    }
    lastRelinkAt.current = Date.now();
    const fresh = await reload();
    const freshPart = fresh?.videos.find((video) => video.id === part.id);
    const freshSource = freshPart ? chooseSource(freshPart.sources, preference, connection) : undefined;
    if (!freshSource) {
      setMediaFailed(true);
      return;
    }
    resume.current = { videoId: part.id, position, play: wasPlaying };
    renewSrc(freshSource.url);
    if (freshSource.url === src) videoRef.current?.load();
  }

  function tryAgain() {
    lastRelinkAt.current = 0;
    setMediaFailed(false);
    void onMediaError();
  }

  function submitTraining() {
    submit.mutate(
      { setId: player.setId },
      {
        onSuccess: () => {
          toast.success(T.submitted, { duration: TOAST_MS });
          // On to the course home, where the next step (the test) waits.
          delayedNavigate(paths.courseContent(courseId), DELAY_AFTER_SUCCESS_MS);
        },
        onError: (error) => {
          toast.error(errorMessage(error, { fallback: T.submitFailed, network: T.submitApiError }), { duration: TOAST_MS });
        },
      },
    );
  }

  const { progress } = player;
  const complete = serverCompleted;
  const completeHere = player.videos.length > 0 && player.videos.every((video) => video.completed);
  const progressLabel = `${progress.completedVideos} of ${progress.totalVideos} part${progress.totalVideos === 1 ? '' : 's'} completed`;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
      <BackLink to={paths.courseContent(courseId)}>Back to the course</BackLink>

      <header className="mt-4 flex flex-wrap items-end justify-between gap-x-8 gap-y-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">Training</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight break-words text-navy-900 sm:text-3xl">{player.course.title}</h1>
          {player.title !== player.course.title && <p className="mt-1 text-muted-foreground">{player.title}</p>}
        </div>
        <div className="w-full sm:w-72">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span id="training-progress-label" className="font-medium text-navy-900">
              {progressLabel}
            </span>
            <span className="font-semibold text-navy-900" aria-hidden>
              {progress.percent}%
            </span>
          </div>
          <Progress value={progress.percent} className="mt-2" aria-labelledby="training-progress-label" />
          <p className="sr-only" aria-live="polite">
            Training progress: {progress.percent}%.
          </p>
        </div>
      </header>

      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_360px]">
        <section ref={playerRegion} aria-labelledby="now-playing" className="grid content-start gap-4">
          <div className="overflow-hidden rounded-xl bg-navy-950 shadow-card">
            {part && src ? (
              // One element for every part (a new source per part), so the focus stays on the player as it moves on.
              <video
                ref={videoRef}
                className="aspect-video w-full bg-navy-950"
                src={src}
                poster={poster}
                controls
                playsInline
                preload="metadata"
                controlsList="nodownload noplaybackrate"
                disablePictureInPicture
                aria-label={`Part ${part.serial}: ${part.title}`}
                onLoadedMetadata={onLoadedMetadata}
                onError={() => void onMediaError()}
                onRateChange={(event) => {
                  // Progress counts at real time only (the server's rule), so the parts play at normal speed.
                  if (event.currentTarget.playbackRate !== 1) event.currentTarget.playbackRate = 1;
                }}
                {...reports.handlers}
              />
            ) : (
              <div className="flex aspect-video w-full flex-col items-center justify-center gap-3 p-6 text-center text-navy-100">
                {part?.locked ? <Lock className="size-10" aria-hidden /> : <Hourglass className="size-10" aria-hidden />}
                <p className="max-w-sm text-sm">
                  {part?.locked
                    ? T.locked
                    : onDevice
                      ? 'Opening the part kept on this device…'
                      : offline
                        ? 'This part is not on this device. It plays once you are back online.'
                        : T.notReady}
                </p>
              </div>
            )}
          </div>

          {(onDevice || offline) && (
            <p className="flex items-start gap-2 text-sm text-muted-foreground">
              {offline ? <WifiOff className="mt-0.5 size-4 shrink-0" aria-hidden /> : <HardDrive className="mt-0.5 size-4 shrink-0" aria-hidden />}
              {offline
                ? 'Offline: parts kept on this device play here, in order. Your watching is kept on this device and sent when you are back online.'
                : 'Playing from this device.'}
            </p>
          )}

          {mediaFailed && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden />
              <AlertTitle>{T.loadFailed}</AlertTitle>
              <AlertDescription>
                <Button variant="outline" size="sm" className="mt-2" onClick={tryAgain}>
                  <RotateCw aria-hidden />
                  Try again
                </Button>
              </AlertDescription>
            </Alert>
          )}

          {part && (
            <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
              <div className="min-w-0">
                <p className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">
                  Part {part.serial} of {player.videos.length}
                </p>
                <h2 id="now-playing" className="mt-0.5 text-lg font-semibold break-words text-navy-900">
                  {part.title}
                </h2>
                <p className="mt-1 text-sm text-muted-foreground">
                  {part.completed
                    ? 'Completed. You can watch it again at any time.'
                    : 'Watch it to the end to complete it; the next part then unlocks. Your place is saved as you watch.'}
                </p>
              </div>
              {!onDevice && <QualityChoice sources={part.sources} preference={preference} connection={connection} onChange={changeQuality} />}
            </div>
          )}
        </section>

        <aside className="grid content-start gap-6" aria-label="Training parts and submission">
          <section aria-labelledby="parts-heading">
            <h2 id="parts-heading" className="mb-3 text-lg font-semibold text-navy-900">
              Parts
            </h2>
            <PartList videos={player.videos} selectedId={part?.id ?? ''} onSelect={select} />
          </section>

          <section aria-labelledby="finish-heading" className="rounded-xl border border-border bg-card p-5 shadow-card">
            <h2 id="finish-heading" className="font-semibold text-navy-900">
              {player.submittedAt ? 'Training submitted' : 'Finish the training'}
            </h2>
            {player.submittedAt ? (
              <p className="mt-1 flex items-start gap-2 text-sm text-muted-foreground">
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
                Submitted on {formatDay(player.submittedAt)}. The course test is open to you.
              </p>
            ) : (
              <p className="mt-1 text-sm text-muted-foreground">
                {complete
                  ? 'Every part is completed. Submit the training to record it, then take the test.'
                  : completeHere
                    ? T.completedOnDevice
                    : 'Once every part is completed you can submit the training and take the test.'}
              </p>
            )}
            {userId && records.length > 0 && <OfflineWatchingStatus records={records} className="mt-3" />}
            <div className="mt-4 grid gap-2">
              {complete && !player.submittedAt && !offline && (
                <Button size="lg" onClick={submitTraining} disabled={submit.isPending || submit.isSuccess} aria-busy={submit.isPending || undefined}>
                  {submit.isPending ? <RotateCw className="animate-spin" aria-hidden /> : <Send aria-hidden />}
                  Submit Training
                </Button>
              )}
              {complete && !player.submittedAt && offline && (
                // Without a link the submission would wait unseen: say what it needs instead.
                <p className="flex items-start gap-2 text-sm font-medium text-navy-900">
                  <WifiOff className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
                  {T.submitNeedsConnection}
                </p>
              )}
              {complete || player.submittedAt ? (
                <Button asChild size="lg" variant={player.submittedAt ? 'default' : 'outline'}>
                  <Link to={paths.testPage(courseId)}>
                    <ClipboardCheck aria-hidden />
                    Give Test
                  </Link>
                </Button>
              ) : (
                <Button size="lg" variant="outline" aria-disabled aria-describedby="give-test-hint" onClick={() => setAnnouncement('The test opens once every part is completed.')}>
                  <ClipboardCheck aria-hidden />
                  Give Test
                </Button>
              )}
              {!complete && !player.submittedAt && (
                <p id="give-test-hint" className="text-xs text-muted-foreground">
                  The test opens once every part is completed.
                </p>
              )}
            </div>
          </section>
        </aside>
      </div>
    </div>
  );
}

function PlayerSkeleton() {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6" aria-busy>
      <span role="status" className="sr-only">
        Loading the training…
      </span>
      <Skeleton className="h-5 w-40" />
      <Skeleton className="mt-4 h-9 w-2/3" />
      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_360px]">
        <Skeleton className="aspect-video w-full rounded-xl" />
        <div className="grid content-start gap-2">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} className="h-16 rounded-lg" />
          ))}
        </div>
      </div>
    </div>
  );
}

/** No training to show: none uploaded, or not this learner's (yet). */
function Unavailable({ title, message }: { title: string; message?: string }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-20 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-sea-50 text-sea-700 ring-1 ring-sea-100">
        <Video className="size-8" aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-navy-900">{title}</h1>
      {message && <p className="mt-3 text-muted-foreground">{message}</p>}
      <Button asChild size="lg" className="mt-8">
        <Link to={paths.userCourses}>Back to Your Courses</Link>
      </Button>
    </div>
  );
}

/** /training/{courseId}: the learner's training player, also with no link for a course kept on this device. */
export function TrainingPlayerPage() {
  const { courseId = '' } = useParams();
  const [userId] = useState(() => readStoredUser()?._id ?? null);
  const player = useTrainingPlayer(courseId);
  const download = useDeviceCourse(userId, courseId);
  const records = useCourseRecords(userId, courseId);
  const online = useOnline();
  // No link: the browser says so, the query waits for one, or the server could not be reached.
  const offline = !online || (player.isPending && player.fetchStatus === 'paused') || (player.isError && !serverAnswered(player.error));
  // The server's record as last seen (kept on the device when offline), else the downloaded package's.
  const base = player.data ?? (offline && download ? playerFromPackage(download.package) : undefined);
  // Nothing kept from the server, the downloaded course on screen: the offline line says so.
  useShowsDeviceCopy(Boolean(base) && !player.data);
  const view = useMemo(() => (base ? withLocalCredit(base, records ?? []) : undefined), [base, records]);
  const latestBase = useRef(base);
  useEffect(() => {
    latestBase.current = base;
  });
  useDocumentTitle(view ? `Training: ${view.course.title}` : 'Training');

  const readRecords = () => (userId ? recordsOfCourse(userId, courseId) : Promise.resolve([]));
  const reload = async () => {
    if (!navigator.onLine) return undefined;
    const fresh = (await player.refetch()).data;
    return fresh && withLocalCredit(fresh, await readRecords());
  };
  const local = async () => {
    const now = latestBase.current;
    if (!now) throw new Error('No training to show');
    return withLocalCredit(now, await readRecords());
  };

  // Online, the data kept from a last visit waits for the server's: where to resume and the links move on.
  const waitingForServer = !offline && player.isFetching && !player.isFetchedAfterMount;
  if (view && records !== undefined && !waitingForServer) {
    return (
      <TrainingPlayer
        player={view}
        reload={reload}
        local={local}
        serverCompleted={Boolean(player.data?.allCompleted)}
        download={download ?? null}
        records={records}
        userId={userId}
        offline={offline}
      />
    );
  }
  if (player.isPending && !(offline && download === null)) return <PlayerSkeleton />;
  if (offline) {
    return (
      <Unavailable
        title="You are offline"
        message="This course is not downloaded on this device. Download it on the course home while you are online to watch it without a link."
      />
    );
  }
  if (player.isError) {
    const status = httpStatusOf(player.error);
    if (status === 403) return <Unavailable title="This training is not open to you" message={errorMessage(player.error, { fallback: T.notEnrolled })} />;
    // No training for the course, or no such course (a mistyped address reads the same).
    if (status === 404 || status === 400) return <Unavailable title={T.noneForCourse} message="The academy has not published the training videos for this course yet." />;
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6">
        <LoadError
          title={T.loadFailed}
          message={errorMessage(player.error, { fallback: T.loadFailed })}
          onRetry={() => void player.refetch()}
          retrying={player.isFetching}
        />
      </div>
    );
  }
  return <PlayerSkeleton />;
}

import { AlertTriangle, CheckCircle2, CloudDownload, HardDrive, Loader2, Pause, Play, Trash2, WifiOff, X } from 'lucide-react';
import { useState } from 'react';
import { SMALLEST_RENDITION_HEIGHT } from '../../../shared/rendition-heights.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { useOfflineApi } from '@/features/enrolments/api/use-offline-api.ts';
import { DOWNLOAD_MESSAGES, availableText, downloadPercent, formatBytes, progressText, resumePoint } from '@/lib/offline/download-plan.ts';
import type { TStoredDownload } from '@/lib/offline/offline-db.ts';
import { type TOfflineHeight, useCourseDownload } from '@/lib/offline/use-course-download.ts';
import { useOnline } from '@/lib/offline/use-online.ts';
import { cn } from '@/lib/utils.ts';

const QUALITIES: { height: TOfflineHeight; label: string; hint: string }[] = [
  { height: 360, label: '360p', hint: 'smaller' },
  { height: 720, label: '720p', hint: 'sharper' },
];

function QualityOption({ height, label, hint, checked, disabled, onSelect }: (typeof QUALITIES)[number] & { checked: boolean; disabled: boolean; onSelect: () => void }) {
  return (
    <label
      className={cn(
        'relative flex flex-1 cursor-pointer items-baseline justify-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium transition-colors sm:flex-none',
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/60',
        checked ? 'bg-navy-900 text-white' : 'text-navy-900 hover:bg-navy-50',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <input type="radio" name="offline-quality" value={height} checked={checked} disabled={disabled} onChange={onSelect} className="sr-only" />
      {label}
      <span className={cn('text-xs font-normal', checked ? 'text-white/80' : 'text-muted-foreground')}>{hint}</span>
    </label>
  );
}

/** A line of "a · b · c" that wraps only between its pieces, never inside "2.1 MB". */
function Unbroken({ text }: { text: string }) {
  return text.split(' · ').map((piece, index) => (
    <span key={index}>
      {index > 0 && ' · '}
      <span className="whitespace-nowrap">{piece}</span>
    </span>
  ));
}

/** "12 minutes of watching", for the remove confirmation. */
const watchingText = (playedMs: number) => {
  const minutes = Math.max(1, Math.round(playedMs / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'} of watching`;
};

function RemoveDownload({ download, onRemove, pendingWatching }: { download: TStoredDownload; onRemove: () => Promise<void>; pendingWatching: () => Promise<{ records: number; playedMs: number }> }) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [unsent, setUnsent] = useState<{ records: number; playedMs: number } | null>(null);
  const ask = async () => {
    setUnsent(await pendingWatching().catch(() => null));
    setOpen(true);
  };
  const confirm = async () => {
    setPending(true);
    try {
      await onRemove();
    } finally {
      setPending(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button variant="ghost" className="w-full text-destructive hover:bg-red-50 sm:w-auto" onClick={() => void ask()}>
        <Trash2 aria-hidden />
        Remove download
      </Button>
      <ConfirmDialog
        open={open}
        title="Remove the download?"
        description={
          <>
            The videos of {download.package.course.title} ({formatBytes(download.storedBytes)}) leave this device. You can download the
            course again when you have a connection.
            {unsent && unsent.records > 0 && (
              <>
                {' '}
                The {watchingText(unsent.playedMs)} recorded offline and not yet sent stay on this device, and are sent to the academy when
                you are online.
              </>
            )}
          </>
        }
        confirmLabel="Remove download"
        pendingLabel="Removing…"
        destructive
        pending={pending}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

type PanelProps = { courseId: string; userId: string | null; hasVideos: boolean };

/**
 * The course home's "Study offline" panel: download the course to this device (the size first,
 * 360p or 720p, the device's free space checked), its progress with pause and resume, and remove.
 * Offline, it says what is on the device.
 */
export function OfflineDownloadPanel({ courseId, userId, hasVideos }: PanelProps) {
  const api = useOfflineApi();
  const online = useOnline();
  const state = useCourseDownload(api, userId, courseId);
  const [height, setHeight] = useState<TOfflineHeight>(SMALLEST_RENDITION_HEIGHT);
  const { download, offer } = state;

  if (!state.supported || download === undefined) return null;
  if (!download && !hasVideos && !state.notice) return null;

  const notice = state.notice && (
    <Alert variant="warning">
      <AlertTriangle aria-hidden />
      <AlertDescription className="flex items-start justify-between gap-2">
        <span>{state.notice}</span>
        <button type="button" className="-m-1 rounded p-1 text-muted-foreground hover:text-navy-900" onClick={state.dismissNotice} aria-label="Dismiss">
          <X className="size-4" aria-hidden />
        </button>
      </AlertDescription>
    </Alert>
  );

  let body;
  if (!download && state.notice) {
    // The enrolment ended: nothing more to offer here.
    body = null;
  } else if (!download) {
    const checking = offer?.checking ?? false;
    const ready = offer && offer.height === height && offer.pkg && !offer.checking ? offer : null;
    const choose = (next: TOfflineHeight) => {
      setHeight(next);
      // Once a size has been asked for, the other quality's size is asked for at once.
      if (offer) void state.prepare(next);
    };
    body = online ? (
      <>
        <p className="text-sm text-muted-foreground">
          Keep this course&rsquo;s videos in this browser to watch them without a connection, in order, as online. Your watching is sent to
          the academy when you are back online.
        </p>
        <fieldset className="mt-4">
          <legend className="mb-2 text-sm font-medium text-navy-900">Picture</legend>
          <div className="flex gap-1 rounded-lg border border-border bg-background p-1 sm:inline-flex">
            {QUALITIES.map((quality) => (
              <QualityOption key={quality.height} {...quality} checked={height === quality.height} disabled={checking} onSelect={() => choose(quality.height)} />
            ))}
          </div>
        </fieldset>
        {ready && ready.pkg!.height !== height && (
          <p className="mt-2 text-sm text-muted-foreground">This course&rsquo;s videos come in {ready.pkg!.height}p at most.</p>
        )}
        {offer?.error && (
          <Alert variant="destructive" className="mt-4">
            <AlertTriangle aria-hidden />
            <AlertDescription>{offer.error}</AlertDescription>
          </Alert>
        )}
        {ready?.space && (
          <Alert variant="warning" className="mt-4">
            <HardDrive aria-hidden />
            <AlertDescription>{ready.space}</AlertDescription>
          </Alert>
        )}
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
          {ready ? (
            <>
              <Button className="w-full sm:w-auto" disabled={Boolean(ready.space)} onClick={() => void state.start()}>
                <CloudDownload aria-hidden />
                Download for offline ({formatBytes(ready.pkg!.totalBytes)})
              </Button>
              {ready.space ? (
                <Button variant="outline" className="w-full sm:w-auto" onClick={() => void state.prepare(height)}>
                  <HardDrive aria-hidden />
                  Check the space again
                </Button>
              ) : (
                <Button variant="ghost" className="w-full sm:w-auto" onClick={state.cancelOffer}>
                  Not now
                </Button>
              )}
            </>
          ) : (
            <Button className="w-full sm:w-auto" disabled={checking} aria-busy={checking || undefined} onClick={() => void state.prepare(height)}>
              {checking ? <Loader2 className="animate-spin" aria-hidden /> : <CloudDownload aria-hidden />}
              {checking ? 'Checking the size…' : 'Download for offline'}
            </Button>
          )}
        </div>
        {ready && !ready.space && (
          <p className="mt-2 text-xs text-muted-foreground">
            {ready.pkg!.parts.length} part{ready.pkg!.parts.length === 1 ? '' : 's'} at {ready.pkg!.height}p. Kept in this browser on this device
            only, for your account.
          </p>
        )}
      </>
    ) : (
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <WifiOff className="mt-0.5 size-4 shrink-0" aria-hidden />
        You are offline. Download this course when you have a connection, to study it here without one.
      </p>
    );
  } else if (download.state === 'complete') {
    body = (
      <>
        <p className="flex items-start gap-2 font-semibold text-success">
          <CheckCircle2 className="mt-0.5 size-5 shrink-0" aria-hidden />
          <span>
            <Unbroken text={availableText(download)} />
          </span>
        </p>
        <p className="mt-1 text-sm text-muted-foreground">
          {download.package.height}p, kept in this browser on this device. {online ? 'The parts play from here, even without a connection.' : 'The parts play from here while you are offline.'}
        </p>
        <div className="mt-4">
          <RemoveDownload download={download} onRemove={state.remove} pendingWatching={state.pendingWatching} />
        </div>
      </>
    );
  } else {
    const total = download.package.totalBytes;
    const stored = Math.min(total, download.storedBytes + state.inFlight);
    const percent = downloadPercent(stored, total);
    const point = resumePoint(download.package.parts, download.partBytes);
    const parts = download.package.parts.length;
    const paused = download.state === 'paused';
    const problem = download.error ?? (!online && !paused ? DOWNLOAD_MESSAGES.waitingForConnection : null);
    body = (
      <>
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <p className="font-semibold text-navy-900">{paused ? 'Download paused' : 'Downloading for offline'}</p>
          <p className="text-sm text-muted-foreground">
            {point ? `Part ${point.partIndex + 1} of ${parts}` : `${parts} of ${parts} parts`} · {download.package.height}p
          </p>
        </div>
        <Progress value={percent} className="mt-3" aria-label={`Downloaded: ${percent}%`} />
        <p className="mt-2 text-sm font-medium text-navy-900 tabular-nums">
          <Unbroken text={progressText(stored, total)} />
        </p>
        {problem && (
          <p className="mt-2 flex items-start gap-2 text-sm text-navy-900" role="status">
            {online ? <AlertTriangle className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden /> : <WifiOff className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />}
            {problem}
          </p>
        )}
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {paused ? (
            <Button className="w-full sm:w-auto" onClick={() => void state.resume()}>
              <Play aria-hidden />
              Resume
            </Button>
          ) : (
            <Button variant="outline" className="w-full sm:w-auto" onClick={() => void state.pause()}>
              <Pause aria-hidden />
              Pause
            </Button>
          )}
          <RemoveDownload download={download} onRemove={state.remove} pendingWatching={state.pendingWatching} />
        </div>
      </>
    );
  }

  return (
    <section aria-labelledby="offline-heading" className="rounded-xl border border-border bg-card p-6 shadow-card">
      <h2 id="offline-heading" className="flex items-center gap-2 text-lg font-semibold text-navy-900">
        <CloudDownload className="size-5 text-sea-700" aria-hidden />
        Study offline
      </h2>
      <div className="mt-3 grid gap-3">
        {notice}
        {body && <div>{body}</div>}
      </div>
    </section>
  );
}

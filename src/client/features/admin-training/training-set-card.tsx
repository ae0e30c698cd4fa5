import { AlertTriangle, ArrowDown, ArrowUp, Film, Hourglass, RotateCw, Trash2 } from 'lucide-react';
import type { TAdminTrainingSet, TAdminVideo } from '../../../shared/schemas/training.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { PartStatusBadge } from '@/features/admin-training/part-status-badge.tsx';
import { formatDateTime, formatDuration } from '@/lib/format.ts';
import { useStableUrl } from '@/lib/use-stable-url.ts';

export type TMoveDirection = 'up' | 'down';

/** The id of a part's move button, so focus can follow the part to its new place. */
export const moveButtonId = (videoId: string, direction: TMoveDirection) => `move-${direction}-${videoId}`;
/** The id of a set's heading, where focus goes when one of its parts is deleted. */
export const setHeadingId = (setId: string) => `training-set-${setId}`;

/** A ready part's player: any rendition will do here (the largest); nothing is fetched until played. */
function PartPlayer({ video, label }: { video: TAdminVideo; label: string }) {
  const source = video.sources[0];
  // The list is read every two seconds while other parts are prepared: keep the links this player started with.
  const [src, renewSrc] = useStableUrl(`${video.id}:${source?.height ?? ''}`, source?.url);
  const [poster] = useStableUrl(video.id, video.posterUrl ?? undefined);
  if (video.status !== 'ready' || !src) {
    const Icon = video.status === 'failed' ? AlertTriangle : video.status === 'processing' ? Film : Hourglass;
    return (
      <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-lg bg-navy-50 text-navy-500" aria-hidden>
        <Icon className="size-8" />
        <span className="text-xs font-medium">{video.status === 'failed' ? 'Not playable' : 'Being prepared'}</span>
      </div>
    );
  }
  return (
    <video
      className="aspect-video w-full rounded-lg bg-navy-950"
      controls
      preload="none"
      poster={poster}
      src={src}
      aria-label={label}
      // An expired link (after hours on the page): take the newest the list has.
      onError={() => renewSrc()}
    />
  );
}

type PartItemProps = {
  set: TAdminTrainingSet;
  video: TAdminVideo;
  index: number;
  /** A change of order of this set is on its way to the server. */
  moving: boolean;
  retrying: boolean;
  /** The member's role may change training: Retry, Move and Delete. */
  editable: boolean;
  onMove: (direction: TMoveDirection) => void;
  onDelete: () => void;
  onRetry: () => void;
};

function PartItem({ set, video, index, moving, retrying, editable, onMove, onDelete, onRetry }: PartItemProps) {
  const partName = `part ${video.serial}, ${video.title}`;
  const first = index === 0;
  const last = index === set.videos.length - 1;
  const progressLabelId = `progress-${video.id}`;
  return (
    <li className="grid gap-4 py-5 first:pt-0 last:pb-0 md:grid-cols-[240px_minmax(0,1fr)]">
      <PartPlayer video={video} label={`Part ${video.serial}: ${video.title}`} />
      <div className="grid min-w-0 content-start gap-3">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <p className="text-xs font-semibold tracking-wider text-sea-700 uppercase">Part {video.serial}</p>
            <h3 className="mt-0.5 font-semibold break-words text-navy-900">{video.title}</h3>
            <p className="mt-1 text-xs text-muted-foreground">
              {video.durationSeconds !== null && <>{formatDuration(video.durationSeconds)} · </>}
              Uploaded {formatDateTime(video.uploadedAt)}
            </p>
          </div>
          <PartStatusBadge video={video} />
        </div>

        {(video.status === 'pending' || video.status === 'processing') && (
          <div className="grid gap-1.5">
            <span id={progressLabelId} className="text-xs text-muted-foreground">
              {video.status === 'pending' ? 'Waiting to be prepared for playback' : `Preparing for playback: ${video.progressPercent}%`}
            </span>
            <Progress value={video.status === 'pending' ? null : video.progressPercent} aria-labelledby={progressLabelId} />
          </div>
        )}

        {video.status === 'failed' && (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/30 bg-red-50 px-3 py-2">
            <p className="text-sm text-destructive">{video.error ?? 'The video could not be prepared for playback.'}</p>
            {editable && (
              <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying} aria-label={`Retry ${partName}`}>
                <RotateCw className={retrying ? 'animate-spin' : undefined} aria-hidden />
                Retry
              </Button>
            )}
          </div>
        )}

        {editable && (
          <div className="flex flex-wrap gap-2">
            <Button
              id={moveButtonId(video.id, 'up')}
              variant="outline"
              size="sm"
              disabled={first}
              aria-disabled={moving || undefined}
              onClick={() => !moving && onMove('up')}
              aria-label={`Move up ${partName}`}
            >
              <ArrowUp aria-hidden />
              Move up
            </Button>
            <Button
              id={moveButtonId(video.id, 'down')}
              variant="outline"
              size="sm"
              disabled={last}
              aria-disabled={moving || undefined}
              onClick={() => !moving && onMove('down')}
              aria-label={`Move down ${partName}`}
            >
              <ArrowDown aria-hidden />
              Move down
            </Button>
            <Button variant="ghost" tone="danger" size="sm" onClick={onDelete} aria-label={`Delete ${partName}`}>
              <Trash2 aria-hidden />
              Delete
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}

type TrainingSetCardProps = {
  set: TAdminTrainingSet;
  moving: boolean;
  retryingId: string | null;
  editable: boolean;
  onMove: (video: TAdminVideo, direction: TMoveDirection) => void;
  onDelete: (video: TAdminVideo) => void;
  onRetry: (video: TAdminVideo) => void;
};

/** One course's training: its parts in order, each with its player, state and actions. */
export function TrainingSetCard({ set, moving, retryingId, editable, onMove, onDelete, onRetry }: TrainingSetCardProps) {
  const headingId = setHeadingId(set.id);
  const ready = set.videos.filter((video) => video.status === 'ready').length;
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-xl border border-border bg-card p-5 shadow-card sm:p-6">
        <header className="mb-5 flex flex-wrap items-start justify-between gap-3 border-b border-border pb-4">
          <div className="min-w-0">
            <h2 id={headingId} tabIndex={-1} className="text-lg font-semibold break-words text-navy-900 outline-none">
              {set.course.title}
            </h2>
            {set.title !== set.course.title && <p className="mt-0.5 text-sm text-muted-foreground">{set.title}</p>}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {!set.course.isActive && <Badge variant="outline">Inactive course</Badge>}
            <Badge variant="default">
              {set.videos.length} part{set.videos.length === 1 ? '' : 's'} · {ready} ready
            </Badge>
          </div>
        </header>
        <ol className="divide-y divide-border" aria-label={`Parts of ${set.course.title}`}>
          {set.videos.map((video, index) => (
            <PartItem
              key={video.id}
              set={set}
              video={video}
              index={index}
              moving={moving}
              retrying={retryingId === video.id}
              editable={editable}
              onMove={(direction) => onMove(video, direction)}
              onDelete={() => onDelete(video)}
              onRetry={() => onRetry(video)}
            />
          ))}
        </ol>
      </article>
    </li>
  );
}

import { CheckCircle2, Hourglass, Lock, PlayCircle, Volume2 } from 'lucide-react';
import type { TPlayerVideo } from '../../../shared/schemas/training.ts';
import { formatDuration } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

type TPartState = 'playing' | 'completed' | 'locked' | 'preparing' | 'open';

function stateOf(video: TPlayerVideo, playing: boolean): TPartState {
  if (playing) return 'playing';
  if (video.locked) return 'locked';
  if (!video.ready) return 'preparing';
  if (video.completed) return 'completed';
  return 'open';
}

const STATE_WORDS: Record<TPartState, string> = {
  playing: 'Playing',
  completed: 'Completed',
  locked: 'Locked',
  preparing: 'Being prepared',
  open: 'Not yet completed',
};

function Marker({ state }: { state: TPartState }) {
  const common = 'size-5 shrink-0';
  if (state === 'playing') return <Volume2 className={cn(common, 'text-sea-700')} aria-hidden />;
  if (state === 'completed') return <CheckCircle2 className={cn(common, 'text-success')} aria-hidden />;
  if (state === 'locked') return <Lock className={cn(common, 'text-navy-400')} aria-hidden />;
  if (state === 'preparing') return <Hourglass className={cn(common, 'text-navy-400')} aria-hidden />;
  return <PlayCircle className={cn(common, 'text-navy-600')} aria-hidden />;
}

type PartListProps = {
  videos: readonly TPlayerVideo[];
  selectedId: string;
  onSelect: (video: TPlayerVideo) => void;
};

/**
 * The training's parts in order, each with its marker (playing, completed, locked) and how much of
 * it has been watched. A locked part stays in the tab order and says why it cannot be played.
 */
export function PartList({ videos, selectedId, onSelect }: PartListProps) {
  return (
    <ol className="grid gap-2">
      {videos.map((video, index) => {
        const playing = video.id === selectedId;
        const state = stateOf(video, playing);
        const unavailable = video.locked || !video.ready;
        const watchedPercent =
          video.durationSeconds && !video.completed ? Math.min(99, Math.floor((video.watchedSeconds / video.durationSeconds) * 100)) : null;
        const reasonId = `part-reason-${video.id}`;
        const reason = video.locked
          ? `Complete part ${videos[index - 1]?.serial ?? index} first.`
          : !video.ready
            ? 'This part is still being prepared.'
            : null;
        return (
          <li key={video.id}>
            <button
              type="button"
              onClick={() => !unavailable && onSelect(video)}
              aria-disabled={unavailable || undefined}
              aria-current={playing ? 'true' : undefined}
              aria-describedby={reason ? reasonId : undefined}
              className={cn(
                'flex w-full items-center gap-3 rounded-lg border px-3 py-3 text-left transition-colors outline-none',
                'focus-visible:ring-2 focus-visible:ring-ring/60',
                playing
                  ? 'border-sea-600 bg-sea-50 shadow-sm'
                  : unavailable
                    ? 'cursor-not-allowed border-border bg-muted text-muted-foreground'
                    : 'border-border bg-card hover:border-sea-300 hover:bg-sea-50/50',
              )}
            >
              <Marker state={state} />
              <span className="min-w-0 flex-1">
                <span className="block text-xs font-semibold tracking-wider text-muted-foreground uppercase">Part {video.serial}</span>
                <span className={cn('block font-medium break-words', unavailable ? 'text-muted-foreground' : 'text-navy-900')}>{video.title}</span>
                <span className="mt-0.5 block text-xs text-muted-foreground">
                  <span className="sr-only">{STATE_WORDS[state]}. </span>
                  {formatDuration(video.durationSeconds)}
                  {video.completed ? ' · Completed' : watchedPercent ? ` · ${watchedPercent}% watched` : ''}
                </span>
                {reason && (
                  <span id={reasonId} className="mt-0.5 block text-xs">
                    {reason}
                  </span>
                )}
              </span>
              {playing && (
                <span className="shrink-0 rounded-full bg-sea-700 px-2 py-0.5 text-xs font-semibold text-white" aria-hidden>
                  Playing
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

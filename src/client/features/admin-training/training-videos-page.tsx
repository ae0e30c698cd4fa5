import { Film, Upload } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTrainingSet, TAdminVideo } from '../../../shared/schemas/training.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDeletePart } from '@/features/admin-training/api/use-delete-part.ts';
import { useReorderParts } from '@/features/admin-training/api/use-reorder-parts.ts';
import { useRetryPart } from '@/features/admin-training/api/use-retry-part.ts';
import { useTrainingSets } from '@/features/admin-training/api/use-training-sets.ts';
import { partStatusText } from '@/features/admin-training/part-status-badge.tsx';
import {
  TrainingSetCard,
  moveButtonId,
  setHeadingId,
  type TMoveDirection,
} from '@/features/admin-training/training-set-card.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

const T = MESSAGES.training;

/** The set's part ids with one part moved one place: the full list training.reorder wants. */
export function movedOrder(set: TAdminTrainingSet, videoId: string, direction: TMoveDirection): string[] | null {
  const ids = set.videos.map((video) => video.id);
  const from = ids.indexOf(videoId);
  const to = direction === 'up' ? from - 1 : from + 1;
  if (from === -1 || to < 0 || to >= ids.length) return null;
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  return ids;
}

/**
 * What changed since the last reading, in words for screen readers: parts that started, finished
 * or failed being prepared (not every step of the percentage, which the bars carry).
 */
function statusChanges(before: ReadonlyMap<string, string>, sets: readonly TAdminTrainingSet[]): string[] {
  const changes: string[] = [];
  for (const set of sets) {
    for (const video of set.videos) {
      const was = before.get(video.id);
      if (was !== undefined && was !== video.status) {
        const reason = video.status === 'failed' && video.error ? `: ${video.error}` : '';
        const status = video.status === 'processing' ? 'processing' : partStatusText(video).toLowerCase();
        changes.push(`${set.course.title}, part ${video.serial}, ${video.title}: ${status}${reason}.`);
      }
    }
  }
  return changes;
}

function TrainingListSkeleton() {
  return (
    <div className="grid gap-6" aria-busy>
      <span role="status" className="sr-only">
        Loading training videos…
      </span>
      {[0, 1].map((card) => (
        <div key={card} aria-hidden className="rounded-xl border border-border bg-card p-6 shadow-card">
          <Skeleton className="h-6 w-1/2" />
          {[0, 1].map((row) => (
            <div key={row} className="mt-6 grid gap-4 md:grid-cols-[240px_minmax(0,1fr)]">
              <Skeleton className="aspect-video w-full rounded-lg" />
              <div className="grid content-start gap-3">
                <Skeleton className="h-4 w-24" />
                <Skeleton className="h-5 w-2/3" />
                <Skeleton className="h-8 w-64" />
              </div>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

type TDeleting = { set: TAdminTrainingSet; video: TAdminVideo };

/**
 * /admin-dashboard/All-training-video: a card per course with its parts in order, each with a
 * player, its state (and live progress while it is prepared), its place in the order, Retry when
 * it failed, and Delete.
 */
export function TrainingVideosPage() {
  const sets = useTrainingSets();
  const reorder = useReorderParts();
  const remove = useDeletePart();
  const retry = useRetryPart();
  const mayEdit = useStaffMay('courses.edit');
  const [deleting, setDeleting] = useState<TDeleting | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<{ videoId: string; direction: TMoveDirection } | null>(null);
  const focusAfterDelete = useRef<string | null>(null);
  const lastStatuses = useRef<Map<string, string> | null>(null);

  // Say when a part becomes ready or fails (the bars carry the percentages).
  useEffect(() => {
    if (!sets.data) return;
    if (lastStatuses.current) {
      const changes = statusChanges(lastStatuses.current, sets.data);
      if (changes.length > 0) setAnnouncement(changes.join(' '));
    }
    lastStatuses.current = new Map(sets.data.flatMap((set) => set.videos.map((video) => [video.id, video.status] as const)));
  }, [sets.data]);

  // A moved part's button keeps the focus in the part's new place (or its other arrow at an end).
  useEffect(() => {
    const target = focusAfterMove.current;
    if (!target) return;
    const same = document.getElementById(moveButtonId(target.videoId, target.direction));
    const other = document.getElementById(moveButtonId(target.videoId, target.direction === 'up' ? 'down' : 'up'));
    const button = same instanceof HTMLButtonElement && !same.disabled ? same : other;
    if (button) {
      button.focus();
      focusAfterMove.current = null;
    }
  }, [sets.data]);

  function move(set: TAdminTrainingSet, video: TAdminVideo, direction: TMoveDirection) {
    const videoIds = movedOrder(set, video.id, direction);
    if (!videoIds) return;
    reorder.mutate(
      { setId: set.id, videoIds },
      {
        onSuccess: (answer) => {
          focusAfterMove.current = { videoId: video.id, direction };
          const place = videoIds.indexOf(video.id) + 1;
          setAnnouncement(`${video.title} is now part ${place} of ${videoIds.length}.`);
          toast.success(answer.message, { duration: ADMIN_TOAST_MS });
        },
        onError: (error) => toast.error(errorMessage(error, { fallback: T.reorderMismatch }), { duration: ADMIN_TOAST_MS }),
      },
    );
  }

  function confirmDelete() {
    if (!deleting) return;
    const { set } = deleting;
    remove.mutate(
      { videoId: deleting.video.id },
      {
        onSuccess: (answer) => {
          toast.success(answer.message, { duration: ADMIN_TOAST_MS });
          focusAfterDelete.current = set.id;
          setDeleting(null);
        },
        onError: (error) => {
          toast.error(errorMessage(error, { fallback: MESSAGES.common.internal }), { duration: ADMIN_TOAST_MS });
          setDeleting(null);
        },
      },
    );
  }

  function retryPart(video: TAdminVideo) {
    retry.mutate(
      { videoId: video.id },
      {
        onSuccess: (answer) => toast.success(answer.message, { duration: ADMIN_TOAST_MS }),
        onError: (error) => toast.error(errorMessage(error, { fallback: MESSAGES.common.internal }), { duration: ADMIN_TOAST_MS }),
      },
    );
  }

  const withParts = sets.data?.filter((set) => set.videos.length > 0);
  const uploadButton = mayEdit && (
    <Button asChild>
      <Link to={paths.admin.training.upload}>
        <Upload aria-hidden />
        Upload Training Videos
      </Link>
    </Button>
  );

  let content;
  if (sets.isPending) content = <TrainingListSkeleton />;
  else if (sets.isError)
    content = (
      <LoadError
        title={T.listFailed}
        message={errorMessage(sets.error, { fallback: T.listFailed })}
        onRetry={() => void sets.refetch()}
        retrying={sets.isFetching}
      />
    );
  else if (!withParts || withParts.length === 0)
    content = (
      <ListEmpty message={T.none} hint={mayEdit ? 'Upload a course’s training videos and they will appear here.' : undefined} icon={Film}>
        {uploadButton && <div className="mt-5">{uploadButton}</div>}
      </ListEmpty>
    );
  else
    content = (
      <ul className="grid gap-6">
        {withParts.map((set) => (
          <TrainingSetCard
            key={set.id}
            set={set}
            moving={reorder.isPending && reorder.variables?.setId === set.id}
            retryingId={retry.isPending ? (retry.variables?.videoId ?? null) : null}
            editable={mayEdit}
            onMove={(video, direction) => move(set, video, direction)}
            onDelete={(video) => setDeleting({ set, video })}
            onRetry={retryPart}
          />
        ))}
      </ul>
    );

  return (
    <AdminPage
      {...adminPageHeadOf(paths.admin.training.list)}
      action={withParts && withParts.length > 0 && uploadButton ? uploadButton : undefined}
    >
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {content}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete training video"
        description="The video and its files are deleted, and learners’ progress on it goes with it. The parts after it move up."
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        destructive
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
        onCloseAutoFocus={(event) => {
          const setId = focusAfterDelete.current;
          if (!setId) return;
          // The part's Delete button is gone: focus its course's heading instead.
          event.preventDefault();
          focusAfterDelete.current = null;
          document.getElementById(setHeadingId(setId))?.focus();
        }}
      >
        {deleting && (
          <>
            <p className="font-semibold text-navy-900">
              Part {deleting.video.serial}: {deleting.video.title}
            </p>
            <p className="text-muted-foreground">{deleting.set.course.title}</p>
          </>
        )}
      </ConfirmDialog>
    </AdminPage>
  );
}

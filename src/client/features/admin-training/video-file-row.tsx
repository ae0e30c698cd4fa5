import { CheckCircle2, CircleSlash, Clock, FileVideo, Trash2, X } from 'lucide-react';
import { type Ref, useImperativeHandle } from 'react';
import type { TUploadResult } from '@/lib/upload/send-form.ts';
import { Button } from '@/components/ui/button.tsx';
import { UploadProgress } from '@/components/upload/upload-progress.tsx';
import { useTrainingVideoUpload } from '@/features/admin-training/api/upload-training-video.ts';
import { VIDEO_ACCEPT } from '@/features/admin-training/upload-form-schema.ts';

/** Where a row's file is in the current round of uploads. */
export type TRowState =
  | { phase: 'idle' }
  | { phase: 'waiting' }
  | { phase: 'uploading' }
  | { phase: 'done'; message: string }
  | { phase: 'failed'; message: string }
  | { phase: 'cancelled' };

/** What the form asks of a row: send its file, or stop sending it. */
export type TVideoRowHandle = {
  send(courseId: string, title: string, file: File): Promise<TUploadResult>;
  cancel(): void;
};

export function fileSizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

type VideoFileRowProps = {
  /** The row's place, from 0. */
  index: number;
  inputId: string;
  file: File | null;
  onFileChange: (file: File | null) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  onRemove: () => void;
  canRemove: boolean;
  /** The check's message for this row (no file, not a video). */
  error?: string;
  state: TRowState;
  /** A round of uploads is running: the rows keep still. */
  busy: boolean;
  /** Stops a row still waiting for its turn. */
  onSkip: () => void;
  handleRef: Ref<TVideoRowHandle>;
};

function uploadLabel(number: number, percent: number): string {
  return percent >= 100 ? `Video file ${number} sent. The server is checking it…` : `Uploading video file ${number}… ${percent}%`;
}

/** One video file of the upload form: the picker, and the file's own progress and outcome. */
export function VideoFileRow({
  index,
  inputId,
  file,
  onFileChange,
  onBlur,
  inputRef,
  onRemove,
  canRemove,
  error,
  state,
  busy,
  onSkip,
  handleRef,
}: VideoFileRowProps) {
  const { percent, send, cancel } = useTrainingVideoUpload();
  useImperativeHandle(handleRef, () => ({ send, cancel }), [send, cancel]);

  const number = index + 1;
  const errorId = `${inputId}-error`;
  const outcomeId = `${inputId}-outcome`;
  const done = state.phase === 'done';
  const failure = state.phase === 'failed' ? state.message : error;
  const describedBy = [failure ? errorId : '', state.phase !== 'idle' ? outcomeId : ''].filter(Boolean).join(' ') || undefined;

  return (
    <li
      className={`grid min-w-0 grid-cols-1 gap-3 rounded-lg border p-4 ${
        failure ? 'border-destructive/60 bg-red-50/40' : done ? 'border-green-200 bg-green-50/50' : 'border-border bg-background'
      }`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={inputId} className="flex items-center gap-2 text-sm font-medium text-navy-900">
          <FileVideo className="size-4 text-sea-700" aria-hidden />
          Video file {number}
        </label>
        {canRemove && (
          <Button variant="ghost" size="sm" onClick={onRemove} disabled={busy} aria-label={`Remove video file ${number}`}>
            <Trash2 aria-hidden />
            Remove
          </Button>
        )}
      </div>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={VIDEO_ACCEPT}
        disabled={busy || done}
        onBlur={onBlur}
        onChange={(event) => onFileChange(event.target.files?.[0] ?? null)}
        aria-invalid={failure ? true : undefined}
        aria-describedby={describedBy}
        className="block w-full min-w-0 text-sm text-navy-900 file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-2 file:text-sm file:font-semibold file:text-secondary-foreground hover:file:bg-secondary-hover disabled:opacity-60"
      />
      {file && <p className="text-xs text-muted-foreground">Size: {fileSizeText(file.size)}</p>}

      <div id={outcomeId}>
        {state.phase === 'uploading' && file && (
          <UploadProgress percent={percent ?? 0} label={uploadLabel(number, percent ?? 0)} onCancel={cancel} />
        )}
        {state.phase === 'waiting' && (
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
            <span className="flex items-center gap-2">
              <Clock className="size-4" aria-hidden />
              Waiting for the files before it to finish
            </span>
            <Button variant="outline" size="sm" onClick={onSkip} aria-label={`Cancel the upload of video file ${number}`}>
              <X aria-hidden />
              Cancel
            </Button>
          </div>
        )}
        {state.phase === 'done' && (
          <p className="flex items-start gap-2 text-sm font-medium text-success">
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
            {state.message}
          </p>
        )}
        {state.phase === 'cancelled' && (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <CircleSlash className="size-4" aria-hidden />
            Upload cancelled. Press Upload to send it again.
          </p>
        )}
      </div>
      {failure && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {failure}
        </p>
      )}
    </li>
  );
}

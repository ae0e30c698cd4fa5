import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, CheckCircle2, Plus, Upload } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, type Resolver, useFieldArray, useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { CourseSelectField } from '@/components/course/course-select-field.tsx';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useActiveCourses } from '@/features/admin-training/api/use-active-courses.ts';
import { TRAINING_UPLOAD_FIELDS } from '@/features/admin-training/api/upload-training-video.ts';
import {
  MAX_VIDEO_ROWS,
  emptyUploadValues,
  uploadFormSchema,
  type TUploadFormValues,
} from '@/features/admin-training/upload-form-schema.ts';
import { type TRowState, type TVideoRowHandle, VideoFileRow } from '@/features/admin-training/video-file-row.tsx';
import { trpc } from '@/lib/trpc.ts';

const T = MESSAGES.training;
const IDLE: TRowState = { phase: 'idle' };

/** How a round of uploads ended, said once it is over. */
type TSummary = { uploaded: number; failed: number; cancelled: number };

function summaryText({ uploaded, failed, cancelled }: TSummary): string {
  const total = uploaded + failed + cancelled;
  const videos = (count: number) => `${count} video${count === 1 ? '' : 's'}`;
  if (uploaded === total) return `${videos(uploaded)} uploaded. They are being prepared for playback.`;
  const parts = [`${uploaded} of ${videos(total)} uploaded`];
  if (failed > 0) parts.push(`${failed} could not be uploaded: see the message beside ${failed === 1 ? 'it' : 'each'}`);
  if (cancelled > 0) parts.push(`${cancelled} cancelled`);
  return `${parts.join('; ')}.`;
}

function messageOf(body: unknown): string | undefined {
  return body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : undefined;
}

/** The course picker: the active courses; choosing one fills the title. */
function CourseField(props: {
  value: string;
  onChange: (courseId: string, title: string) => void;
  onBlur: () => void;
  fieldRef: (element: HTMLButtonElement | null) => void;
  error?: string;
  disabled: boolean;
}) {
  return <CourseSelectField id="training-course" choices={useActiveCourses()} name={TRAINING_UPLOAD_FIELDS.courseId} {...props} />;
}

/**
 * /admin-dashboard/training-video: a course (which fills the title), the title, and one or more
 * video files. Each file is its own POST /api/trainingVideo, one after the other (so the parts
 * keep the rows' order), with its own progress bar and Cancel, and its outcome beside it.
 */
export function UploadTrainingVideosPage() {
  const utils = trpc.useUtils();
  const [rowStates, setRowStates] = useState<Record<string, TRowState>>({});
  const handles = useRef(new Map<string, TVideoRowHandle>());
  const skipped = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const [summary, setSummary] = useState<TSummary | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const resolver = useMemo(() => zodResolver(uploadFormSchema()) as unknown as Resolver<TUploadFormValues>, []);
  const {
    control,
    register,
    handleSubmit,
    setValue,
    setError,
    setFocus,
    reset,
    getValues,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<TUploadFormValues>({ resolver, defaultValues: emptyUploadValues() });
  const { fields, append, remove } = useFieldArray({ control, name: 'videos' });

  const setRow = (key: string, state: TRowState) => setRowStates((states) => ({ ...states, [key]: state }));
  const busy = isSubmitting;

  async function onValid(values: TUploadFormValues) {
    setSummary(null);
    const batch = fields
      .map((field, index) => ({ key: field.id, index, file: values.videos[index]?.file ?? null }))
      .filter((row) => rowStates[row.key]?.phase !== 'done');
    skipped.current.clear();
    setRowStates((states) => ({ ...states, ...Object.fromEntries(batch.map((row) => [row.key, { phase: 'waiting' }])) }));

    const tally: TSummary = { uploaded: 0, failed: 0, cancelled: 0 };
    let firstFailed: number | null = null;
    for (const [position, row] of batch.entries()) {
      const handle = handles.current.get(row.key);
      if (!mounted.current) return;
      if (!handle || !row.file) continue;
      if (skipped.current.has(row.key)) {
        setRow(row.key, { phase: 'cancelled' });
        tally.cancelled += 1;
        continue;
      }
      setRow(row.key, { phase: 'uploading' });
      const result = await handle.send(values.courseId, values.title.trim(), row.file);
      if (!mounted.current) return;
      if (result.outcome === 'saved') {
        setRow(row.key, { phase: 'done', message: 'Uploaded. It is being prepared for playback.' });
        toast.success(messageOf(result.body) ?? T.uploaded(1), { id: 'training-upload', duration: ADMIN_TOAST_MS });
        tally.uploaded += 1;
        continue;
      }
      if (result.outcome === 'cancelled') {
        setRow(row.key, { phase: 'cancelled' });
        tally.cancelled += 1;
        continue;
      }
      // A 401 the upload could not renew has already sent the administrator to log in.
      if (result.outcome === 'refused' && result.status === 401) return;
      const fieldErrors = result.outcome === 'refused' ? (result.errors ?? {}) : {};
      const courseError = fieldErrors[TRAINING_UPLOAD_FIELDS.courseId];
      const titleError = fieldErrors[TRAINING_UPLOAD_FIELDS.title];
      if (courseError || titleError) {
        // About the form, not this file: every other file would be refused the same way.
        if (courseError) setError('courseId', { type: 'server', message: courseError }, { shouldFocus: true });
        if (titleError) setError('title', { type: 'server', message: titleError }, { shouldFocus: !courseError });
        for (const rest of batch.slice(position)) setRow(rest.key, IDLE);
        return;
      }
      const message =
        (result.outcome === 'refused' ? (fieldErrors[TRAINING_UPLOAD_FIELDS.video] ?? result.message) : undefined) ?? T.uploadFailed;
      setRow(row.key, { phase: 'failed', message });
      tally.failed += 1;
      firstFailed ??= row.index;
    }

    await utils.training.sets.invalidate();
    if (!mounted.current) return;
    setSummary(tally);
    if (tally.uploaded === batch.length) {
      // Everything went: a fresh row for the next file, on the same course.
      reset({ ...getValues(), videos: [{ file: null }] });
      handles.current.clear();
      setRowStates({});
      requestAnimationFrame(() => summaryRef.current?.focus());
    } else if (firstFailed !== null) {
      setFocus(`videos.${firstFailed}.file`);
    } else {
      requestAnimationFrame(() => summaryRef.current?.focus());
    }
  }

  function removeRow(index: number) {
    const key = fields[index]?.id;
    remove(index);
    if (key) {
      handles.current.delete(key);
      setRowStates(({ [key]: _removed, ...rest }) => rest);
    }
    // Focus stays in the list: on the row that took its place from above, or on Add.
    requestAnimationFrame(() => (index > 0 ? setFocus(`videos.${index - 1}.file`) : addButton.current?.focus()));
  }

  const summaryAllGood = summary !== null && summary.failed === 0 && summary.cancelled === 0;

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.training.upload)}>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(onValid)(event)}
        className="grid gap-6 rounded-xl border border-border bg-card p-5 shadow-card sm:p-8"
        aria-busy={busy || undefined}
      >
        <Controller
          control={control}
          name="courseId"
          render={({ field, fieldState }) => (
            <CourseField
              value={field.value}
              onChange={(courseId, title) => {
                field.onChange(courseId);
                setValue('title', title, { shouldValidate: isSubmitted, shouldDirty: true });
              }}
              onBlur={field.onBlur}
              fieldRef={field.ref}
              error={fieldState.error?.message}
              disabled={busy}
            />
          )}
        />

        <FormField id="training-title" label="Title" error={errors.title?.message} hint="Filled in from the course; change it if the training has a title of its own.">
          {(controlProps) => <Input {...controlProps} {...register('title')} disabled={busy} autoComplete="off" />}
        </FormField>

        <fieldset className="grid min-w-0 gap-3">
          <legend className="mb-3 text-sm font-medium text-navy-900">Video files</legend>
          <ol className="grid grid-cols-1 gap-3">
            {fields.map((row, index) => (
              <Controller
                key={row.id}
                control={control}
                name={`videos.${index}.file`}
                render={({ field, fieldState }) => (
                  <VideoFileRow
                    index={index}
                    inputId={`training-video-${row.id}`}
                    file={field.value}
                    onFileChange={(file) => {
                      field.onChange(file);
                      setRow(row.id, IDLE);
                      setSummary(null);
                    }}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    onRemove={() => removeRow(index)}
                    canRemove={fields.length > 1}
                    error={fieldState.error?.message}
                    state={rowStates[row.id] ?? IDLE}
                    busy={busy}
                    onSkip={() => {
                      skipped.current.add(row.id);
                      setRow(row.id, { phase: 'cancelled' });
                    }}
                    handleRef={(handle) => {
                      if (handle) handles.current.set(row.id, handle);
                    }}
                  />
                )}
              />
            ))}
          </ol>
          <div>
            <Button
              ref={addButton}
              variant="outline"
              onClick={() => append({ file: null }, { shouldFocus: true })}
              disabled={busy || fields.length >= MAX_VIDEO_ROWS}
            >
              <Plus aria-hidden />
              Add another video
            </Button>
          </div>
        </fieldset>

        <div ref={summaryRef} tabIndex={-1} role="status" className="outline-none empty:hidden">
          {summary && (
            <div
              className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${
                summaryAllGood ? 'border-green-200 bg-green-50 text-navy-900' : 'border-yellow-200 bg-yellow-50 text-navy-900'
              }`}
            >
              {summaryAllGood ? (
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              ) : (
                <AlertCircle className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
              )}
              <p>
                {summaryText(summary)}{' '}
                {summary.uploaded > 0 && (
                  <Link to={paths.admin.training.list} className="font-semibold text-sea-700 underline underline-offset-4">
                    Follow their preparation in All Training Videos
                  </Link>
                )}
              </p>
            </div>
          )}
        </div>

        <div className="flex flex-col-reverse gap-3 border-t border-border pt-6 sm:flex-row sm:justify-end">
          <SubmitButton pending={busy} size="lg">
            {!busy && <Upload aria-hidden />}
            {busy ? 'Uploading…' : 'Upload'}
          </SubmitButton>
        </div>
      </form>
    </AdminPage>
  );
}

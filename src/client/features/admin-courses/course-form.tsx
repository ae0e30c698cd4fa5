import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { useMemo } from 'react';
import { Controller, type Path, type Resolver, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { COMMON_MESSAGES } from '../../../shared/common-messages.ts';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { UploadProgress } from '@/components/upload/upload-progress.tsx';
import { useSaveCourse } from '@/features/admin-courses/api/save-course.ts';
import {
  courseFormSchema,
  courseValues,
  emptyCourseValues,
  formFieldOf,
  toCourseFormData,
  type TCourseFormOutput,
  type TCourseFormValues,
} from '@/features/admin-courses/course-form-schema.ts';
import { CourseImageField } from '@/features/admin-courses/course-image-field.tsx';
import { SubjectsField } from '@/features/admin-courses/subjects-field.tsx';

const C = MESSAGES.courses;

function uploadLabel(percent: number, hasFile: boolean): string {
  return percent >= 100 ? 'Sent. Saving the course…' : hasFile ? `Uploading the image… ${percent}%` : `Saving… ${percent}%`;
}

/** Create Course and Update Course (spec sections 2 and 5); `course` set means editing it. */
export function CourseForm({ course }: { course?: TCourse }) {
  const editing = course !== undefined;
  const { percent, save, reloadCourses } = useSaveCourse(course?.id);
  const resolver = useMemo(
    () => zodResolver(courseFormSchema(!editing)) as unknown as Resolver<TCourseFormValues, unknown, TCourseFormOutput>,
    [editing],
  );
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TCourseFormValues, unknown, TCourseFormOutput>({
    resolver,
    defaultValues: course ? courseValues(course) : emptyCourseValues(),
  });
  const failed = editing ? C.updateFailed : C.createFailed;

  async function onValid(values: TCourseFormOutput) {
    const result = await save(toCourseFormData(values, course?.image?.filename));
    if (result.outcome === 'saved') {
      toast.success(editing ? C.updated : C.created, { duration: ADMIN_TOAST_MS });
      await reloadCourses();
      // A new course starts a blank form; an edit keeps showing what was saved.
      reset(editing ? { ...values, price: String(values.price), image: null } : emptyCourseValues());
      return;
    }
    if (result.outcome !== 'refused') {
      // No answer, or the upload stopped because the administrator left the screen.
      const network = result.outcome === 'network';
      toast.error(failed, { duration: ADMIN_TOAST_MS, description: network ? COMMON_MESSAGES.networkError : undefined });
      return;
    }
    // A 401 the upload could not renew has already sent the administrator to log in.
    if (result.status === 401) return;
    let placed = false;
    for (const [serverField, message] of Object.entries(result.errors ?? {})) {
      const field = formFieldOf(serverField);
      if (!field) continue;
      setError(field as Path<TCourseFormValues>, { type: 'server', message }, { shouldFocus: !placed });
      placed = true;
    }
    // The course routes carry the error's text in `error` as well as `message`.
    const message = result.error ?? result.message;
    // Too large or not an image: the server says so in a message only, and it is about the image.
    if (!placed && (result.status === 413 || result.status === 415) && message) {
      setError('image', { type: 'server', message }, { shouldFocus: true });
    }
    toast.error(message ?? failed, { duration: ADMIN_TOAST_MS });
  }

  const busy = isSubmitting;
  const chosenImage = useWatch({ control, name: 'image' });

  return (
    <form
      noValidate
      onSubmit={(event) => void handleSubmit(onValid)(event)}
      className="grid gap-6 rounded-xl border border-border bg-card p-5 shadow-card sm:p-8"
      aria-busy={busy || undefined}
    >
      <FormField id="course-title" label="Title" error={errors.title?.message}>
        {(control) => <Input {...control} {...register('title')} disabled={busy} placeholder="e.g. Basic Safety Training" />}
      </FormField>

      <div className="grid gap-6 sm:grid-cols-3">
        <FormField id="course-duration" label="Duration" error={errors.duration?.message}>
          {(control) => <Input {...control} {...register('duration')} disabled={busy} placeholder="e.g. 5 days" />}
        </FormField>
        <FormField id="course-price" label="Price (₹)" error={errors.price?.message}>
          {(control) => (
            <Input
              {...control}
              {...register('price')}
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              disabled={busy}
              placeholder="e.g. 4500"
            />
          )}
        </FormField>
        <FormField id="course-category" label="Category" error={errors.category?.message}>
          {(control) => <Input {...control} {...register('category')} disabled={busy} placeholder="e.g. STCW" />}
        </FormField>
      </div>

      <SubjectsField control={control} register={register} errors={errors} disabled={busy} />

      <FormField id="course-description" label="Description" error={errors.description?.message}>
        {(control) => (
          <Textarea
            {...control}
            {...register('description')}
            rows={6}
            disabled={busy}
            placeholder="What learners will be able to do after the course, who it is for, and how it is taught."
          />
        )}
      </FormField>

      <Controller
        control={control}
        name="image"
        render={({ field, fieldState }) => (
          <CourseImageField
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            current={course?.image ?? null}
            error={fieldState.error?.message}
            disabled={busy}
          />
        )}
      />

      {percent !== null && <UploadProgress percent={percent} label={uploadLabel(percent, chosenImage !== null)} />}

      <div className="flex flex-col-reverse gap-3 border-t border-border pt-6 sm:flex-row sm:justify-end">
        {editing && (
          <Button asChild variant="outline">
            <Link to={paths.admin.courses.list}>Back to All Courses</Link>
          </Button>
        )}
        <SubmitButton pending={busy} size="lg">
          {!busy && <Save aria-hidden />}
          {editing ? 'Update Course' : 'Create Course'}
        </SubmitButton>
      </div>
    </form>
  );
}

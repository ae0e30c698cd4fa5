import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Send, Shuffle } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { Controller, type Path, type Resolver, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { ATTEMPTS_ALLOWED_MAX, TEST_MAX_QUESTIONS, WAIT_MINUTES_MAX, type TTestForm } from '../../../shared/schemas/tests.ts';
import { paths } from '@/config/paths.ts';
import { CourseSelectField } from '@/components/course/course-select-field.tsx';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useCreateTest } from '@/features/admin-tests/api/use-create-test.ts';
import { useTestCourses } from '@/features/admin-tests/api/use-test-courses.ts';
import { QuestionFields } from '@/features/admin-tests/question-fields.tsx';
import { emptyQuestion, emptyTestValues, formFieldOf, testFormSchema, type TTestFormValues } from '@/features/admin-tests/test-form-schema.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';

const T = MESSAGES.tests;

function serverFields(error: unknown): Record<string, string> {
  const data = (error as { data?: { fields?: Record<string, string> | null } } | null)?.data;
  return data?.fields ?? {};
}

/**
 * /admin-dashboard/test-form, Create New Test: an active course (its title fills the read-only
 * title), the pass mark and the questions, one to start with. Checked with the shared ZTestForm
 * before sending; the server's field errors land on their fields.
 */
export function TestFormPage() {
  const courses = useTestCourses();
  const create = useCreateTest();
  const addButton = useRef<HTMLButtonElement>(null);
  const resolver = useMemo(() => zodResolver(testFormSchema) as unknown as Resolver<TTestFormValues, unknown, TTestForm>, []);
  const {
    control,
    register,
    handleSubmit,
    setValue,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<TTestFormValues, unknown, TTestForm>({ resolver, defaultValues: emptyTestValues() });
  const { fields, append, remove } = useFieldArray({ control, name: 'questions' });
  const perAttempt = useWatch({ control, name: 'questionsPerAttempt' });
  const busy = isSubmitting;

  async function onValid(values: TTestForm) {
    try {
      await create.mutateAsync(values);
    } catch (error) {
      // A 401 the session could not renew has already sent the administrator to log in.
      if (httpStatusOf(error) === 401) return;
      let placed = false;
      for (const [serverField, message] of Object.entries(serverFields(error))) {
        const field = formFieldOf(serverField);
        if (!field) continue;
        setError(field as Path<TTestFormValues>, { type: 'server', message }, { shouldFocus: !placed });
        placed = true;
      }
      toast.error(errorMessage(error, { fallback: T.createFailed, network: T.createFailed }), { duration: ADMIN_TOAST_MS });
      return;
    }
    const asked = values.questionsPerAttempt === null ? 'all asked' : `${values.questionsPerAttempt} asked each attempt`;
    toast.success(T.created, {
      duration: ADMIN_TOAST_MS,
      description: `${values.title}: ${values.questions.length} ${values.questions.length === 1 ? 'question' : 'questions'} (${asked}), unpublished.`,
    });
    reset(emptyTestValues());
    requestAnimationFrame(() => setFocus('courseId'));
  }

  function removeQuestion(index: number) {
    remove(index);
    requestAnimationFrame(() => (index > 0 ? setFocus(`questions.${index - 1}.questionText`) : setFocus('questions.0.questionText')));
  }

  const questionsError = errors.questions?.message ?? errors.questions?.root?.message;

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.tests.create)}>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(onValid)(event)}
        className="grid gap-6 rounded-xl border border-border bg-card p-4 shadow-card sm:p-8"
        aria-busy={busy || undefined}
      >
        <Controller
          control={control}
          name="courseId"
          render={({ field, fieldState }) => (
            <CourseSelectField
              id="test-course"
              choices={courses}
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

        <div className="grid gap-6 sm:grid-cols-[1fr_10rem]">
          <FormField id="test-title" label="Title" error={errors.title?.message} hint="Filled in from the course.">
            {(controlProps) => <Input {...controlProps} {...register('title')} readOnly tabIndex={-1} className="bg-muted" placeholder="Choose a course" />}
          </FormField>
          <FormField id="test-pass-mark" label="Pass mark (%)" error={errors.passMark?.message}>
            {(controlProps) => (
              <Input {...controlProps} {...register('passMark')} type="number" inputMode="numeric" min={0} max={100} step={1} disabled={busy} placeholder="e.g. 60" />
            )}
          </FormField>
        </div>

        <section aria-labelledby="test-questions-heading" className="grid min-w-0 gap-4">
          <h2 id="test-questions-heading" className="text-lg font-semibold text-navy-900">
            Questions <span className="text-sm font-normal text-muted-foreground">({fields.length})</span>
          </h2>
          <ol className="grid min-w-0 gap-4">
            {fields.map((question, index) => (
              <QuestionFields
                key={question.id}
                index={index}
                control={control}
                register={register}
                errors={errors}
                canRemove={fields.length > 1}
                onRemove={() => removeQuestion(index)}
                disabled={busy}
              />
            ))}
          </ol>
          {questionsError && <p className="text-sm font-medium text-destructive">{questionsError}</p>}
          <div>
            <Button
              ref={addButton}
              variant="outline"
              onClick={() => append(emptyQuestion(), { focusName: `questions.${fields.length}.questionText` })}
              disabled={busy || fields.length >= TEST_MAX_QUESTIONS}
            >
              <Plus aria-hidden />
              Add Question
            </Button>
          </div>
        </section>

        <fieldset className="grid min-w-0 gap-4 rounded-lg border border-border bg-muted/40 p-4 sm:p-5" aria-describedby="test-policy-explained">
          <legend className="flex items-center gap-2 px-1 text-lg font-semibold text-navy-900">
            <Shuffle className="size-4 text-sea-700" aria-hidden />
            Attempts
          </legend>
          <p id="test-policy-explained" className="-mt-1 text-sm text-muted-foreground">
            Each attempt draws its questions at random from the questions above, in a new order with the options shuffled. When the attempts run
            out, the learner watches the training again, or you grant more from Test Results.
          </p>
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField
              id="test-questions-per-attempt"
              label="Questions per attempt"
              error={errors.questionsPerAttempt?.message}
              hint={perAttempt.trim() === '' ? `Empty: all ${fields.length} asked.` : `Of the ${fields.length} above.`}
            >
              {(controlProps) => (
                <Input
                  {...controlProps}
                  {...register('questionsPerAttempt')}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={fields.length}
                  step={1}
                  disabled={busy}
                  placeholder="All"
                />
              )}
            </FormField>
            <FormField id="test-attempts-allowed" label="Attempts allowed" error={errors.attemptsAllowed?.message} hint="Per round of training.">
              {(controlProps) => (
                <Input {...controlProps} {...register('attemptsAllowed')} type="number" inputMode="numeric" min={1} max={ATTEMPTS_ALLOWED_MAX} step={1} disabled={busy} />
              )}
            </FormField>
            <FormField id="test-wait-minutes" label="Wait between attempts (minutes)" error={errors.waitMinutes?.message} hint="0 for none.">
              {(controlProps) => (
                <Input {...controlProps} {...register('waitMinutes')} type="number" inputMode="numeric" min={0} max={WAIT_MINUTES_MAX} step={1} disabled={busy} />
              )}
            </FormField>
          </div>
        </fieldset>

        <div className="flex flex-col-reverse gap-3 border-t border-border pt-6 sm:flex-row sm:justify-end">
          <SubmitButton pending={busy} size="lg">
            {!busy && <Send aria-hidden />}
            {busy ? 'Creating…' : 'Submit Test'}
          </SubmitButton>
        </div>
      </form>
    </AdminPage>
  );
}

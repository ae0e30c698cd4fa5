import { Plus, Trash2 } from 'lucide-react';
import { type Control, type FieldErrors, type UseFormRegister, useFieldArray } from 'react-hook-form';
import { COURSE_MAX_SUBJECTS } from '../../../shared/schemas/course.ts';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import type { TCourseFormOutput, TCourseFormValues } from '@/features/admin-courses/course-form-schema.ts';

type SubjectsFieldProps = {
  control: Control<TCourseFormValues, unknown, TCourseFormOutput>;
  register: UseFormRegister<TCourseFormValues>;
  errors: FieldErrors<TCourseFormValues>;
  disabled: boolean;
};

/** The course's subjects: one row each, at least one row kept, rows added and removed. */
export function SubjectsField({ control, register, errors, disabled }: SubjectsFieldProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'subjects' });
  const listError = errors.subjects?.root?.message ?? errors.subjects?.message;

  return (
    <fieldset className="grid gap-3" aria-describedby={listError ? 'course-subjects-error' : 'course-subjects-hint'}>
      <legend className="text-sm font-medium text-navy-900">Subjects</legend>
      <p id="course-subjects-hint" className="-mt-1 text-xs text-muted-foreground">
        What the course teaches, one subject per row.
      </p>
      <ol className="grid gap-2">
        {fields.map((field, index) => {
          const id = `course-subject-${index}`;
          const error = errors.subjects?.[index]?.value?.message;
          return (
            <li key={field.id} className="grid gap-1">
              <div className="flex items-center gap-2">
                <label htmlFor={id} className="w-20 shrink-0 text-sm text-muted-foreground">
                  Subject {index + 1}
                </label>
                <Input
                  id={id}
                  placeholder="e.g. Fire prevention"
                  disabled={disabled}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  {...register(`subjects.${index}.value`)}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => remove(index)}
                  disabled={disabled || fields.length <= 1}
                  aria-label={`Remove subject ${index + 1}`}
                  title={fields.length <= 1 ? 'A course keeps at least one subject' : undefined}
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
              {error && (
                <p id={`${id}-error`} className="text-sm font-medium text-destructive pl-22">
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {listError && (
        <p id="course-subjects-error" className="text-sm font-medium text-destructive">
          {listError}
        </p>
      )}
      <Button
        variant="outline"
        size="sm"
        className="justify-self-start"
        onClick={() => append({ value: '' })}
        disabled={disabled || fields.length >= COURSE_MAX_SUBJECTS}
      >
        <Plus aria-hidden />
        Add subject
      </Button>
    </fieldset>
  );
}

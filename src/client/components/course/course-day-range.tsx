import { RotateCw } from 'lucide-react';
import { type RefObject, useRef, useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

/*
 * A course and a range of days of issue, the choice of the administrators' exports (the evidence
 * behind certificates, the regulator's batch). Checked here without a form library or zod, so the
 * screens stay free of them (decision 035); the server checks the same and answers 400.
 */

export type TCourseDayRange = { courseId: string; from: string; to: string };
type TField = 'course' | 'from' | 'to';
export type TCourseDayRangeErrors = Partial<Record<TField, string>>;
/** The catalogue's words for a day that is not one and a range the wrong way round. */
export type TRangeMessages = { dateFormat: string; rangeOrder: string };

/** Every course, active or not (a course closed since still has the certificates it issued), as its query gives them. */
export type TAllCourseChoices = {
  courses: ReadonlyArray<{ id: string; title: string; isActive: boolean }> | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

/** The days the form offers first: the last 30, today included. */
const DEFAULT_DAYS = 30;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** A day of the administrator's calendar as a date input holds it: YYYY-MM-DD. */
function dayOf(date: Date): string {
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}

function daysBefore(date: Date, days: number): Date {
  const earlier = new Date(date);
  earlier.setDate(earlier.getDate() - days);
  return earlier;
}

/** What is wrong with the choice, field by field. */
export function courseDayRangeProblems({ courseId, from, to }: TCourseDayRange, messages: TRangeMessages): TCourseDayRangeErrors {
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
  const errors: TCourseDayRangeErrors = {};
  if (!courseId) errors.course = MESSAGES.tests.courseRequired;
  if (!isDay(from)) errors.from = messages.dateFormat;
  if (!isDay(to)) errors.to = messages.dateFormat;
  else if (isDay(from) && from > to) errors.to = messages.rangeOrder;
  return errors;
}

export type TCourseDayRangeForm = ReturnType<typeof useCourseDayRange>;

/** The choice's state: the last 30 days at first; `check()` gives the range, or shows the errors and focuses the first. */
export function useCourseDayRange(messages: TRangeMessages) {
  const [range, setRange] = useState<TCourseDayRange>(() => ({
    courseId: '',
    from: dayOf(daysBefore(new Date(), DEFAULT_DAYS - 1)),
    to: dayOf(new Date()),
  }));
  const [errors, setErrors] = useState<TCourseDayRangeErrors>({});
  const fields = { course: useRef<HTMLSelectElement>(null), from: useRef<HTMLInputElement>(null), to: useRef<HTMLInputElement>(null) };

  /** A field's error goes once the field is changed; the others keep theirs until the next try. */
  function set(field: TField, value: string) {
    setRange((current) => ({ ...current, [field === 'course' ? 'courseId' : field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  }

  function check(): TCourseDayRange | null {
    const problems = courseDayRangeProblems(range, messages);
    setErrors(problems);
    const first = (['course', 'from', 'to'] as const).find((field) => problems[field]);
    if (!first) return range;
    fields[first].current?.focus();
    return null;
  }

  return { range, errors, fields, set, check };
}

function DayField({ id, label, hint, error, value, inputRef, onChange }: {
  id: string;
  label: string;
  hint: string | undefined;
  error: string | undefined;
  value: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (value: string) => void;
}) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      {(control) => <Input {...control} ref={inputRef} type="date" value={value} onChange={(event) => onChange(event.target.value)} />}
    </FormField>
  );
}

/** The course select (with Try again when the courses could not be loaded) and the two days. */
export function CourseDayRangeFields({ idPrefix, form, choices, hints }: {
  idPrefix: string;
  form: TCourseDayRangeForm;
  choices: TAllCourseChoices;
  hints?: { from: string; to: string };
}) {
  const none = choices.courses?.length === 0;
  return (
    <>
      <FormField
        id={`${idPrefix}-course`}
        label="Course"
        error={form.errors.course ?? (choices.isError ? MESSAGES.courses.adminLoadFailed : undefined)}
        hint={none ? 'There is no course yet.' : 'Every course is listed, active or not.'}
      >
        {(control) => (
          <div className="flex flex-wrap items-center gap-2">
            <NativeSelect
              {...control}
              ref={form.fields.course}
              className="min-w-0 flex-1"
              value={form.range.courseId}
              disabled={!choices.courses || none}
              onChange={(event) => form.set('course', event.target.value)}
            >
              <option value="">{choices.isPending ? 'Loading courses…' : 'Select a course'}</option>
              {choices.courses?.map((course) => (
                <option key={course.id} value={course.id}>
                  {course.isActive ? course.title : `${course.title} (inactive)`}
                </option>
              ))}
            </NativeSelect>
            {choices.isError && (
              <Button variant="outline" size="sm" onClick={() => void choices.refetch()} disabled={choices.isFetching}>
                <RotateCw className={choices.isFetching ? 'animate-spin' : undefined} aria-hidden />
                Try again
              </Button>
            )}
          </div>
        )}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <DayField
          id={`${idPrefix}-from`}
          label="Issued from"
          hint={hints?.from}
          error={form.errors.from}
          value={form.range.from}
          inputRef={form.fields.from}
          onChange={(value) => form.set('from', value)}
        />
        <DayField
          id={`${idPrefix}-to`}
          label="Issued to"
          hint={hints?.to}
          error={form.errors.to}
          value={form.range.to}
          inputRef={form.fields.to}
          onChange={(value) => form.set('to', value)}
        />
      </div>
    </>
  );
}

import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

/** The courses an administrator's form offers, as its query gives them (undefined while loading). */
export type TCourseChoices = {
  courses: ReadonlyArray<{ id: string; title: string }> | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

type CourseSelectFieldProps = {
  id: string;
  choices: TCourseChoices;
  value: string;
  /** The chosen course and its title (forms fill their title from it). */
  onChange: (courseId: string, title: string) => void;
  onBlur: () => void;
  fieldRef: (element: HTMLButtonElement | null) => void;
  error?: string | undefined;
  disabled: boolean;
  /** The form field's name, when the form is also sent as a plain form. */
  name?: string;
};

/**
 * The administrators' course picker (Create New Test, Upload Training Video): the active courses,
 * a way to load them again when they could not be, and the way to the course list when none is
 * active.
 */
export function CourseSelectField({ id, choices, value, onChange, onBlur, fieldRef, error, disabled, name }: CourseSelectFieldProps) {
  const none = choices.courses?.length === 0;
  return (
    <FormField
      id={id}
      label="Course"
      error={error ?? (choices.isError ? MESSAGES.courses.adminLoadFailed : undefined)}
      hint={none ? 'There is no active course. Create a course, or activate one, first.' : 'Only active courses are listed.'}
    >
      {(controlProps) => (
        <div className="flex flex-wrap items-center gap-2">
          <Select
            value={value}
            onValueChange={(courseId) => onChange(courseId, choices.courses?.find((course) => course.id === courseId)?.title ?? '')}
            disabled={disabled || !choices.courses || none}
            {...(name ? { name } : {})}
          >
            <SelectTrigger {...controlProps} ref={fieldRef} onBlur={onBlur} className="min-w-0 flex-1">
              <SelectValue placeholder={choices.isPending ? 'Loading courses…' : 'Select a course'} />
            </SelectTrigger>
            <SelectContent>
              {choices.courses?.map((course) => (
                <SelectItem key={course.id} value={course.id}>
                  {course.title}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {choices.isError && (
            <Button variant="outline" size="sm" onClick={() => void choices.refetch()} disabled={choices.isFetching}>
              Try again
            </Button>
          )}
          {none && (
            <Button asChild variant="outline" size="sm">
              <Link to={paths.admin.courses.list}>All Courses</Link>
            </Button>
          )}
        </div>
      )}
    </FormField>
  );
}

import { Download, RotateCw } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { downloadEvidenceCsv } from '@/features/admin-evidence/api/download-evidence-csv.ts';
import { useEvidenceCourses } from '@/features/admin-evidence/api/use-evidence-courses.ts';

const E = MESSAGES.evidence;
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

type TField = 'course' | 'from' | 'to';
type TErrors = Partial<Record<TField, string>>;

/** What is wrong with the form, field by field, in the catalogue's words (the server checks the same). */
function problemsOf({ courseId, from, to }: { courseId: string; from: string; to: string }): TErrors {
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
  const errors: TErrors = {};
  if (!courseId) errors.course = MESSAGES.tests.courseRequired;
  if (!isDay(from)) errors.from = E.dateFormat;
  if (!isDay(to)) errors.to = E.dateFormat;
  else if (isDay(from) && from > to) errors.to = E.rangeOrder;
  return errors;
}

/** What each row of the file says: the words under the form. */
function FileContents() {
  return (
    <section aria-labelledby="evidence-file" className="mt-8 grid gap-3 text-sm">
      <h2 id="evidence-file" className="text-lg font-semibold text-navy-900">
        What the file holds
      </h2>
      <p className="text-muted-foreground">
        Every certificate of the course issued on the days chosen, both included (days run midnight to midnight UTC). Each row starts with the
        certificate’s number, when it was issued and revoked, the holder’s name and e-mail and the course, then says one thing that happened:
      </p>
      <ul className="grid list-disc gap-2 pl-5 text-navy-900 marker:text-sea-700">
        <li>
          <span className="font-semibold">Part watched:</span> each part of the training, when it was first watched and completed, its length, the
          seconds credited and the seconds the server’s own clock saw it playing.
        </li>
        <li>
          <span className="font-semibold">Report refused:</span> each report of watching the server did not credit in full, when, why, the span it
          claimed and what was credited.
        </li>
        <li>
          <span className="font-semibold">Test attempt:</span> each attempt, when it was started and submitted, its score, percentage and result,
          and every question with the learner’s answer beside the right one.
        </li>
      </ul>
      <p className="text-muted-foreground">
        To see one certificate’s evidence on screen, open Test Results and choose Evidence beside the certificate.
      </p>
    </section>
  );
}

/**
 * /admin-dashboard/certificate-evidence: the evidence behind a course's certificates issued on a
 * range of days, downloaded as one CSV with the administrator's session. The form is checked here
 * without a form library or zod, so the test screens' chunk it shares stays free of them (decision 035).
 */
export function EvidenceExportPage() {
  const navigate = useNavigate();
  const courses = useEvidenceCourses();
  const [courseId, setCourseId] = useState('');
  const [from, setFrom] = useState(() => dayOf(daysBefore(new Date(), DEFAULT_DAYS - 1)));
  const [to, setTo] = useState(() => dayOf(new Date()));
  const [errors, setErrors] = useState<TErrors>({});
  const [pending, setPending] = useState(false);
  const fields = { course: useRef<HTMLSelectElement>(null), from: useRef<HTMLInputElement>(null), to: useRef<HTMLInputElement>(null) };
  const none = courses.courses?.length === 0;

  async function exportEvidence(event: FormEvent) {
    event.preventDefault();
    const problems = problemsOf({ courseId, from, to });
    setErrors(problems);
    const first = (['course', 'from', 'to'] as const).find((field) => problems[field]);
    if (first) {
      fields[first].current?.focus();
      return;
    }
    setPending(true);
    const outcome = await downloadEvidenceCsv({ courseId, from, to });
    setPending(false);
    if (outcome.outcome === 'saved') toast.success(E.exported, { duration: ADMIN_TOAST_MS, description: outcome.fileName });
    else if (outcome.outcome === 'unauthorized') navigate(paths.adminLogin);
    else toast.error(E.exportFailed, { duration: ADMIN_TOAST_MS, description: outcome.message });
  }

  /** A field's error goes once the field is changed; the others keep theirs until the next try. */
  function changed(field: TField) {
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.tests.evidence)}>
      <Card>
        <CardContent className="p-4 sm:p-6">
          <form noValidate onSubmit={(event) => void exportEvidence(event)} className="grid gap-5" aria-label="Export evidence">
            <FormField
              id="evidence-course"
              label="Course"
              error={errors.course ?? (courses.isError ? MESSAGES.courses.adminLoadFailed : undefined)}
              hint={none ? 'There is no course yet.' : 'Every course is listed, active or not.'}
            >
              {(control) => (
                <div className="flex flex-wrap items-center gap-2">
                  <NativeSelect
                    {...control}
                    ref={fields.course}
                    className="min-w-0 flex-1"
                    value={courseId}
                    disabled={!courses.courses || none}
                    onChange={(event) => {
                      setCourseId(event.target.value);
                      changed('course');
                    }}
                  >
                    <option value="">{courses.isPending ? 'Loading courses…' : 'Select a course'}</option>
                    {courses.courses?.map((course) => (
                      <option key={course.id} value={course.id}>
                        {course.isActive ? course.title : `${course.title} (inactive)`}
                      </option>
                    ))}
                  </NativeSelect>
                  {courses.isError && (
                    <Button variant="outline" size="sm" onClick={() => void courses.refetch()} disabled={courses.isFetching}>
                      <RotateCw className={courses.isFetching ? 'animate-spin' : undefined} aria-hidden />
                      Try again
                    </Button>
                  )}
                </div>
              )}
            </FormField>
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField id="evidence-from" label="Issued from" error={errors.from}>
                {(control) => (
                  <Input
                    {...control}
                    ref={fields.from}
                    type="date"
                    value={from}
                    onChange={(event) => {
                      setFrom(event.target.value);
                      changed('from');
                    }}
                  />
                )}
              </FormField>
              <FormField id="evidence-to" label="Issued to" error={errors.to}>
                {(control) => (
                  <Input
                    {...control}
                    ref={fields.to}
                    type="date"
                    value={to}
                    onChange={(event) => {
                      setTo(event.target.value);
                      changed('to');
                    }}
                  />
                )}
              </FormField>
            </div>
            <div>
              <SubmitButton pending={pending}>
                {!pending && <Download aria-hidden />}
                {pending ? 'Exporting…' : 'Export CSV'}
              </SubmitButton>
            </div>
          </form>
        </CardContent>
      </Card>
      <FileContents />
    </AdminPage>
  );
}

import { TRPCClientError } from '@trpc/client';
import { Award, CircleCheck, Save } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourseCertificateSettings } from '../../../shared/schemas/course.ts';
import { LoadError } from '@/components/lists/list-states.tsx';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useCourseCertificateSettings, useSaveCourseCertificateSettings } from '@/features/admin-courses/api/use-course-certificate-settings.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { useAdminCourses } from '@/lib/api/courses.ts';

const CC = MESSAGES.courseCertificate;
/** The server's bound on a certificate's validity (COURSE_VALIDITY_MONTHS_MAX), kept here so the form needs no schema. */
const VALIDITY_MONTHS_MAX = 120;

type TField = 'code' | 'approvalNumber' | 'validityMonths' | 'refresherCourseId';
export type TSettingsErrors = Partial<Record<TField, string>>;

/** The form as typed: text, as the inputs hold it. */
export type TSettingsValues = {
  code: string;
  approvalNumber: string;
  validity: 'none' | 'months';
  validityMonths: string;
  refresherCourseId: string;
  testRequiresApprovedProfile: boolean;
};

export function settingsValues(settings: TCourseCertificateSettings): TSettingsValues {
  return {
    code: settings.code ?? '',
    approvalNumber: settings.approvalNumber ?? '',
    validity: settings.validityMonths === null ? 'none' : 'months',
    validityMonths: settings.validityMonths === null ? '' : String(settings.validityMonths),
    refresherCourseId: settings.refresher?.id ?? '',
    testRequiresApprovedProfile: settings.testRequiresApprovedProfile,
  };
}

/**
 * What the form must get right before it is sent: a number of months when the certificate expires.
 * The code's format and the approval number's length are the server's to judge; its 400 puts
 * their words on the fields.
 */
export function settingsProblems(values: TSettingsValues): TSettingsErrors {
  if (values.validity === 'none') return {};
  const months = values.validityMonths.trim();
  const whole = /^\d+$/.test(months) ? Number(months) : Number.NaN;
  return whole >= 1 && whole <= VALIDITY_MONTHS_MAX ? {} : { validityMonths: CC.validityRange };
}

/** The server's per-field words of a refusal (400), on this form's fields. */
function serverFieldErrors(error: unknown): TSettingsErrors {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = (error.data as { fields?: Record<string, string> | null } | undefined)?.fields ?? {};
  const errors: TSettingsErrors = {};
  for (const field of ['code', 'approvalNumber', 'validityMonths', 'refresherCourseId'] as const) {
    if (fields[field]) errors[field] = fields[field];
  }
  return errors;
}

const FIELD_ORDER: readonly TField[] = ['code', 'approvalNumber', 'validityMonths', 'refresherCourseId'];

function SettingsForm({ courseId, settings }: { courseId: string; settings: TCourseCertificateSettings }) {
  const courses = useAdminCourses();
  const save = useSaveCourseCertificateSettings();
  const [values, setValues] = useState(() => settingsValues(settings));
  const [errors, setErrors] = useState<TSettingsErrors>({});
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const refs = {
    code: useRef<HTMLInputElement>(null),
    approvalNumber: useRef<HTMLInputElement>(null),
    validityMonths: useRef<HTMLInputElement>(null),
    refresherCourseId: useRef<HTMLSelectElement>(null),
  };
  const validityHint = useId();
  const others = courses.data?.filter((course) => course.id !== courseId).sort((a, b) => a.title.localeCompare(b.title));

  function change<K extends keyof TSettingsValues>(name: K, value: TSettingsValues[K]) {
    setValues((current) => ({ ...current, [name]: value }));
    setSaved(false);
    const field = name === 'validity' ? 'validityMonths' : name;
    if (field in errors) setErrors(({ [field as TField]: _gone, ...rest }) => rest);
  }

  // The first refused field takes focus once the form is enabled again (a disabled field cannot).
  const [focusField, setFocusField] = useState<{ field: TField } | null>(null);
  const busy = save.isPending;
  useEffect(() => {
    if (focusField && !busy) refs[focusField.field].current?.focus();
    // refs are stable; focus moves once per refusal.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusField, busy]);

  function showErrors(problems: TSettingsErrors) {
    setErrors(problems);
    const first = FIELD_ORDER.find((field) => problems[field]);
    if (first) setFocusField({ field: first });
    return first !== undefined;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(undefined);
    setSaved(false);
    if (showErrors(settingsProblems(values))) return;
    try {
      const result = await save.mutateAsync({
        courseId,
        code: values.code,
        approvalNumber: values.approvalNumber,
        validityMonths: values.validity === 'none' ? null : Number(values.validityMonths.trim()),
        refresherCourseId: values.refresherCourseId || null,
        testRequiresApprovedProfile: values.testRequiresApprovedProfile,
      });
      setValues(settingsValues(result.settings));
      setSaved(true);
    } catch (error) {
      const placed = showErrors(serverFieldErrors(error));
      if (!placed) setFormError(errorMessage(error, { fallback: MESSAGES.common.internal }));
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-6" aria-busy={busy || undefined} aria-labelledby="certificate-settings">
      {formError && (
        <Alert variant="destructive">
          <AlertDescription>{formError}</AlertDescription>
        </Alert>
      )}
      <div className="grid gap-6 sm:grid-cols-2">
        <FormField id="certificate-code" label="Course code" error={errors.code} hint="Printed on the certificate and in the regulator’s batch, e.g. FPFF.">
          {(control) => (
            <Input {...control} ref={refs.code} value={values.code} onChange={(event) => change('code', event.target.value)} disabled={busy} autoCapitalize="characters" maxLength={40} />
          )}
        </FormField>
        <FormField id="certificate-approval" label="Approval number" error={errors.approvalNumber} hint="The regulator’s approval of the course, as it should print.">
          {(control) => (
            <Input {...control} ref={refs.approvalNumber} value={values.approvalNumber} onChange={(event) => change('approvalNumber', event.target.value)} disabled={busy} maxLength={120} />
          )}
        </FormField>
      </div>

      <fieldset className="grid gap-3" aria-describedby={validityHint}>
        <legend className="text-sm font-medium text-navy-900">Validity</legend>
        <p id={validityHint} className="mt-1 text-xs text-muted-foreground">
          How long a certificate of this course is valid from its day of issue. Certificates already issued keep their dates.
        </p>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <label className="flex items-center gap-2 text-sm text-navy-900">
            <input type="radio" name="validity" value="none" checked={values.validity === 'none'} onChange={() => change('validity', 'none')} disabled={busy} className="size-4 accent-sea-700" />
            Does not expire
          </label>
          <label className="flex items-center gap-2 text-sm text-navy-900">
            <input type="radio" name="validity" value="months" checked={values.validity === 'months'} onChange={() => change('validity', 'months')} disabled={busy} className="size-4 accent-sea-700" />
            Valid for a number of months
          </label>
        </div>
        {values.validity === 'months' && (
          <FormField id="certificate-months" label="Months" error={errors.validityMonths} hint={`1 to ${VALIDITY_MONTHS_MAX}; 60 is five years.`} className="max-w-48">
            {(control) => (
              <Input
                {...control}
                ref={refs.validityMonths}
                type="number"
                inputMode="numeric"
                min={1}
                max={VALIDITY_MONTHS_MAX}
                step={1}
                value={values.validityMonths}
                onChange={(event) => change('validityMonths', event.target.value)}
                disabled={busy}
              />
            )}
          </FormField>
        )}
        {values.validity === 'none' && errors.validityMonths && <p className="text-sm font-medium text-destructive">{errors.validityMonths}</p>}
      </fieldset>

      <FormField
        id="certificate-refresher"
        label="Refresher course"
        error={errors.refresherCourseId ?? (courses.isError ? MESSAGES.courses.adminLoadFailed : undefined)}
        hint="The course whose certificate renews this one; its holders are reminded to enrol in it before they expire."
      >
        {(control) => (
          <NativeSelect {...control} ref={refs.refresherCourseId} value={values.refresherCourseId} onChange={(event) => change('refresherCourseId', event.target.value)} disabled={busy || !others}>
            <option value="">{others ? 'None' : 'Loading courses…'}</option>
            {/* The saved refresher stays listed while the courses load. */}
            {!others && settings.refresher && <option value={settings.refresher.id}>{settings.refresher.title}</option>}
            {others?.map((course) => (
              <option key={course.id} value={course.id}>
                {course.isActive ? course.title : `${course.title} (inactive)`}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>

      <div className="flex items-start gap-3">
        {/* The browser's own checkbox: it needs no script to draw, and its label toggles it. */}
        <input
          type="checkbox"
          id="certificate-profile-required"
          checked={values.testRequiresApprovedProfile}
          onChange={(event) => change('testRequiresApprovedProfile', event.target.checked)}
          disabled={busy}
          aria-describedby="certificate-profile-required-hint"
          className="mt-0.5 size-4.5 shrink-0 accent-sea-700"
        />
        <div className="grid gap-1">
          <Label htmlFor="certificate-profile-required" className="leading-snug">
            The test requires a complete, approved seafarer profile
          </Label>
          <p id="certificate-profile-required-hint" className="text-xs text-muted-foreground">
            The test opens only once the learner’s account is approved and the profile holds an INDoS number, date of birth and passport.
          </p>
        </div>
      </div>

      <div className="flex flex-col-reverse items-start gap-3 border-t border-border pt-6 sm:flex-row sm:items-center sm:justify-end">
        <p role="status" className="flex items-center gap-2 text-sm text-success">
          {saved && (
            <>
              <CircleCheck className="size-4" aria-hidden />
              {CC.saved}
            </>
          )}
        </p>
        <SubmitButton pending={busy}>
          {!busy && <Save aria-hidden />}
          Save certificate settings
        </SubmitButton>
      </div>
    </form>
  );
}

/**
 * The course's certificate settings, a section of its own under the course form on Edit Course:
 * course code, approval number, validity, refresher course and whether the test needs an approved
 * profile. Saved on its own (courses.updateCertificateSettings), so the course's form stays the
 * spec's multipart one.
 */
export function CourseCertificateSettings({ courseId }: { courseId: string }) {
  const settings = useCourseCertificateSettings(courseId);
  return (
    <section aria-labelledby="certificate-settings" className="mt-8 grid gap-5 rounded-xl border border-border bg-card p-5 shadow-card sm:p-8">
      <header className="grid gap-1">
        <h2 id="certificate-settings" className="flex items-center gap-2 text-lg font-semibold text-navy-900">
          <Award className="size-5 text-sea-700" aria-hidden />
          Certificate settings
        </h2>
        <p className="text-sm text-muted-foreground">What the course’s certificates carry for the regulator, how long they are valid, and what renews them.</p>
      </header>
      {settings.isError ? (
        <LoadError
          title="Failed to load the certificate settings."
          message={errorMessage(settings.error, { fallback: MESSAGES.common.internal })}
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : !settings.data ? (
        <div className="grid gap-4" aria-busy>
          <span role="status" className="sr-only">
            Loading the certificate settings…
          </span>
          <Skeleton className="h-10" />
          <Skeleton className="h-24" />
          <Skeleton className="h-10" />
        </div>
      ) : (
        <SettingsForm key={courseId} courseId={courseId} settings={settings.data} />
      )}
    </section>
  );
}

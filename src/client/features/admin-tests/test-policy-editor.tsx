import { SlidersHorizontal } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest } from '../../../shared/schemas/tests.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { useUpdateTestPolicy } from '@/features/admin-tests/api/use-update-test-policy.ts';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';

const T = MESSAGES.tests;
type TPolicyField = 'questionsPerAttempt' | 'attemptsAllowed' | 'waitMinutes';
type TPolicyValues = Record<TPolicyField, string>;

const valuesOf = (test: TAdminTest): TPolicyValues => ({
  questionsPerAttempt: test.questionsPerAttempt === null ? '' : String(test.questionsPerAttempt),
  attemptsAllowed: String(test.attemptsAllowed),
  waitMinutes: String(test.waitMinutes),
});

/** A typed whole number; an emptied box is no number, which the server refuses in its own words. */
const typedNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

function serverFields(error: unknown): Partial<Record<TPolicyField, string>> {
  const data = (error as { data?: { fields?: Record<string, string> | null } } | null)?.data;
  return data?.fields ?? {};
}

/**
 * "Edit policy" on a test's card: a dialog with the questions per attempt (empty: all), the
 * attempts allowed and the wait, checked by the server, whose field errors land under each box.
 * The change applies to attempts started after it.
 */
export function TestPolicyEditor({ test }: { test: TAdminTest }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<TPolicyValues>(() => valuesOf(test));
  const [errors, setErrors] = useState<Partial<Record<TPolicyField, string>>>({});
  const update = useUpdateTestPolicy();
  const id = useId();
  const bank = test.questions.length;
  // The first refused field takes focus once the boxes are enabled again (they are off while saving).
  const focusNext = useRef<TPolicyField | null>(null);
  useEffect(() => {
    if (update.isPending || !focusNext.current) return;
    document.getElementById(`${id}-${focusNext.current}`)?.focus();
    focusNext.current = null;
  }, [errors, update.isPending, id]);

  function start() {
    setValues(valuesOf(test));
    setErrors({});
    setOpen(true);
  }

  async function save() {
    setErrors({});
    try {
      const result = await update.mutateAsync({
        testId: test.id,
        questionsPerAttempt: values.questionsPerAttempt.trim() === '' ? null : typedNumber(values.questionsPerAttempt),
        attemptsAllowed: typedNumber(values.attemptsAllowed),
        waitMinutes: typedNumber(values.waitMinutes),
      });
      toast.success(result.message, { duration: ADMIN_TOAST_MS, description: test.title });
      setOpen(false);
    } catch (error) {
      // A 401 the session could not renew has already sent the administrator to log in.
      if (httpStatusOf(error) === 401) return;
      const fields = serverFields(error);
      setErrors(fields);
      const first = (['questionsPerAttempt', 'attemptsAllowed', 'waitMinutes'] as const).find((field) => fields[field]);
      if (first) focusNext.current = first;
      else toast.error(errorMessage(error, { fallback: T.policySaveFailed, network: T.policySaveFailed }), { duration: ADMIN_TOAST_MS });
    }
  }

  const field = (name: TPolicyField) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
    type: 'number',
    inputMode: 'numeric' as const,
    step: 1,
    disabled: update.isPending,
  });

  return (
    <>
      <Button variant="outline" size="sm" onClick={start} aria-label={`Edit policy of ${test.title}`}>
        <SlidersHorizontal aria-hidden />
        Edit policy
      </Button>
      <FormDialog
        open={open}
        title="Edit attempts policy"
        description={`${test.title}. The change applies to attempts started after it; an attempt in progress keeps its questions.`}
        submitLabel="Save"
        pendingLabel="Saving…"
        pending={update.isPending}
        onSubmit={() => void save()}
        onClose={() => setOpen(false)}
      >
        <div className="grid gap-4">
          <FormField
            id={`${id}-questionsPerAttempt`}
            label="Questions per attempt"
            error={errors.questionsPerAttempt}
            hint={values.questionsPerAttempt.trim() === '' ? `Empty: all ${bank} asked.` : `Of the ${bank} in the test.`}
          >
            {(control) => <Input {...control} {...field('questionsPerAttempt')} min={1} max={bank} placeholder="All" />}
          </FormField>
          <FormField id={`${id}-attemptsAllowed`} label="Attempts allowed" error={errors.attemptsAllowed} hint="Per round of training.">
            {(control) => <Input {...control} {...field('attemptsAllowed')} min={1} />}
          </FormField>
          <FormField id={`${id}-waitMinutes`} label="Wait in minutes" error={errors.waitMinutes} hint="Between attempts; 0 for none.">
            {(control) => <Input {...control} {...field('waitMinutes')} min={0} />}
          </FormField>
        </div>
      </FormDialog>
    </>
  );
}

import { Trash2 } from 'lucide-react';
import { type Control, type FieldErrors, type UseFormRegister, useWatch } from 'react-hook-form';
import { QUESTION_MAX_LENGTH, OPTION_MAX_LENGTH } from '../../../shared/schemas/tests.ts';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { OPTION_LETTERS } from '@/features/admin-tests/option-letters.ts';
import type { TTestFormValues } from '@/features/admin-tests/test-form-schema.ts';
import { cn } from '@/lib/utils.ts';

type QuestionFieldsProps = {
  index: number;
  control: Control<TTestFormValues, unknown, unknown>;
  register: UseFormRegister<TTestFormValues>;
  errors: FieldErrors<TTestFormValues>;
  canRemove: boolean;
  onRemove: () => void;
  disabled: boolean;
};

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="text-sm font-medium text-destructive">
      {message}
    </p>
  ) : null;
}

/** One question: its text, four options, and which option is the answer (radios that list the options). */
export function QuestionFields({ index, control, register, errors, canRemove, onRemove, disabled }: QuestionFieldsProps) {
  const number = index + 1;
  const base = `question-${index}`;
  const options = useWatch({ control, name: `questions.${index}.options` });
  const questionErrors = errors.questions?.[index];
  const textError = questionErrors?.questionText?.message;
  const answerError = questionErrors?.correctAnswer?.message;
  const optionsError = questionErrors?.options?.message ?? questionErrors?.options?.root?.message;

  return (
    <li className="min-w-0">
      <fieldset className="grid min-w-0 gap-4 rounded-lg border border-border bg-background p-4 sm:p-5">
        <legend className="sr-only">Question {number}</legend>
        <div className="flex min-h-9 items-center justify-between gap-2">
          <span aria-hidden className="text-base font-semibold text-navy-900">
            Question {number}
          </span>
          {canRemove && (
            <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled} aria-label={`Remove question ${number}`}>
              <Trash2 aria-hidden />
              Remove
            </Button>
          )}
        </div>

        <div className="grid gap-2">
          <label htmlFor={`${base}-text`} className="text-sm font-medium text-navy-900">
            Question text
          </label>
          <Textarea
            id={`${base}-text`}
            rows={2}
            maxLength={QUESTION_MAX_LENGTH}
            disabled={disabled}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? `${base}-text-error` : undefined}
            placeholder="e.g. Which extinguisher suits an electrical fire?"
            {...register(`questions.${index}.questionText`)}
          />
          <FieldError id={`${base}-text-error`} message={textError} />
        </div>

        <div className="grid gap-3 sm:grid-cols-2">
          {OPTION_LETTERS.map((letter, option) => {
            const id = `${base}-option-${option}`;
            const error = questionErrors?.options?.[option]?.message;
            return (
              <div key={letter} className="grid gap-1.5">
                <label htmlFor={id} className="text-sm font-medium text-navy-900">
                  Option {letter}
                </label>
                <Input
                  id={id}
                  maxLength={OPTION_MAX_LENGTH}
                  disabled={disabled}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  autoComplete="off"
                  {...register(`questions.${index}.options.${option}`)}
                />
                <FieldError id={`${id}-error`} message={error} />
              </div>
            );
          })}
        </div>
        <FieldError id={`${base}-options-error`} message={optionsError} />

        <fieldset className="grid gap-2" aria-describedby={answerError ? `${base}-answer-error` : undefined}>
          <legend className="mb-2 text-sm font-medium text-navy-900">Correct answer</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {OPTION_LETTERS.map((letter, option) => {
              const id = `${base}-answer-${option}`;
              const text = options?.[option]?.trim();
              return (
                <label
                  key={letter}
                  htmlFor={id}
                  className={cn(
                    'flex min-w-0 cursor-pointer items-center gap-3 rounded-md border border-input px-3 py-2 text-sm transition-colors',
                    'has-checked:border-sea-600 has-checked:bg-sea-50 has-focus-visible:ring-2 has-focus-visible:ring-ring',
                    answerError && 'border-destructive',
                  )}
                >
                  <input
                    id={id}
                    type="radio"
                    value={String(option)}
                    disabled={disabled}
                    aria-invalid={answerError ? true : undefined}
                    className="size-4 shrink-0 accent-sea-700"
                    {...register(`questions.${index}.correctAnswer`)}
                  />
                  <span className="font-semibold text-navy-900">{letter}.</span>
                  <span className={cn('min-w-0 truncate', !text && 'text-muted-foreground italic')}>{text || 'No text yet'}</span>
                </label>
              );
            })}
          </div>
          <FieldError id={`${base}-answer-error`} message={answerError} />
        </fieldset>
      </fieldset>
    </li>
  );
}

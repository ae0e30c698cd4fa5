import type { ReactNode } from 'react';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/utils.ts';

/** What a field's control needs to be labelled and to announce its hint and error. */
export type TFieldControlProps = {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
};

type FormFieldProps = {
  id: string;
  label: ReactNode;
  /** The field's error, shown under it and announced with the control. */
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: (control: TFieldControlProps) => ReactNode;
};

/** A label, the control (rendered by `children` with the ids it must carry), a hint and the error. */
export function FormField({ id, label, error, hint, className, children }: FormFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div data-slot="form-field" className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

import { useState, type FormEvent } from 'react';
import type { TTotpEnrolment } from '../../../shared/schemas/second-factor.ts';
import { FormError } from '@/components/ui/form-error.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { CodeInput } from '@/features/auth/code-input.tsx';

/**
 * Setting up an authenticator app: the QR code to scan, the secret to type instead, and the
 * first code to confirm it.
 */
export function TotpSetup({
  enrolment,
  pending,
  error,
  onConfirm,
  submitLabel,
}: {
  enrolment: TTotpEnrolment;
  pending: boolean;
  error?: string | undefined;
  onConfirm: (code: string) => void;
  submitLabel: string;
}) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const grouped = enrolment.secret.match(/.{1,4}/g)?.join(' ') ?? enrolment.secret;

  function submit(event: FormEvent) {
    event.preventDefault();
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setFieldError('Enter the 6-digit code from your authenticator app.');
      return;
    }
    setFieldError(undefined);
    onConfirm(digits);
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      <ol className="grid list-decimal gap-2 pl-5 text-sm">
        <li>Open an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password).</li>
        <li>Scan this QR code, or type the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <img src={enrolment.qrCode} alt="QR code to add this account to your authenticator app" width={200} height={200} className="mx-auto rounded-md border bg-white p-1" />
      <div className="grid gap-1 text-center">
        <span className="text-sm text-muted-foreground" id="totp-secret-label">
          Key to type instead
        </span>
        <code aria-labelledby="totp-secret-label" className="break-all rounded-md bg-muted px-3 py-2 font-mono text-base tracking-wider select-all" data-testid="totp-secret">
          {grouped}
        </code>
      </div>
      <FormError message={error} />
      <FormField id="totp-confirm-code" label="6-digit code" error={fieldError}>
        {(control) => <CodeInput {...control} value={code} onChange={setCode} />}
      </FormField>
      <SubmitButton pending={pending} size="lg" className="w-full">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

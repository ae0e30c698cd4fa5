import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, LockKeyhole, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router-dom';
import type { z } from 'zod';
import { DELAY_AFTER_SUCCESS_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZResetPasswordForm } from '../../../shared/schemas/auth.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useResetPassword } from '@/features/auth/api/use-reset-password.ts';
import { AuthShell, authLinkClass } from '@/features/auth/auth-shell.tsx';
import { readAuthState } from '@/features/auth/auth-state.ts';
import { OtpInput, normaliseOtp } from '@/features/auth/otp-input.tsx';
import { applyFieldErrors, errorMessage } from '@/lib/api-errors.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

type TResetInput = z.input<typeof ZResetPasswordForm>;
type TResetValues = z.output<typeof ZResetPasswordForm>;

const FIELDS = ['otp', 'newPassword', 'confirmPassword'] as const;

/** /reset-password: the code from the mail and a new password, for the e-mail in navigation state. */
export function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  const { email, notice } = readAuthState(useLocation().state);

  return (
    <AuthShell
      icon={LockKeyhole}
      title="Reset password"
      description="Enter the code from the email and choose a new password."
      footer={
        <>
          Didn&apos;t get a code?{' '}
          <Link to={paths.forgotPassword} className={authLinkClass}>
            Send a new one
          </Link>
        </>
      }
    >
      {email ? (
        <ResetPasswordForm email={email} notice={notice} />
      ) : (
        <div className="grid gap-4">
          <Alert variant="warning">
            <MailCheck aria-hidden />
            <AlertDescription>First enter your email address, and we will send you a code.</AlertDescription>
          </Alert>
          <Button asChild className="w-full">
            <Link to={paths.forgotPassword}>Forgot password?</Link>
          </Button>
        </div>
      )}
    </AuthShell>
  );
}

function ResetPasswordForm({ email, notice }: { email: string; notice?: string }) {
  const reset = useResetPassword();
  const navigateLater = useDelayedNavigate();
  const [done, setDone] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<TResetInput, unknown, TResetValues>({
    resolver: zodResolver(ZResetPasswordForm),
    defaultValues: { email, otp: '', newPassword: '', confirmPassword: '' },
  });

  async function onSubmit({ confirmPassword: _confirm, ...values }: TResetValues) {
    setFormError(undefined);
    try {
      const result = await reset.mutateAsync(values);
      setDone(result.message || MESSAGES.auth.resetDone);
      navigateLater(paths.login, DELAY_AFTER_SUCCESS_MS, { state: { email } });
    } catch (error) {
      if (!applyFieldErrors(error, setError, FIELDS)) {
        setFormError(errorMessage(error, { fallback: MESSAGES.auth.resetFailed }));
      }
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid gap-5">
      {notice && !done && !formError && (
        <Alert variant="success">
          <MailCheck aria-hidden />
          <AlertDescription>{notice}</AlertDescription>
        </Alert>
      )}
      {done && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden />
          <AlertDescription>{done} Taking you to the login…</AlertDescription>
        </Alert>
      )}
      <FormError message={formError} />

      <FormField id="reset-email" label="Email Address">
        {(control) => <Input {...control} type="email" value={email} readOnly className="bg-muted" />}
      </FormField>
      <FormField id="reset-otp" label="OTP" error={errors.otp?.message}>
        {(control) => (
          <OtpInput
            {...control}
            autoFocus
            disabled={Boolean(done)}
            {...register('otp', {
              onChange: (event: { target: HTMLInputElement }) => {
                const digits = normaliseOtp(event.target.value);
                if (digits !== event.target.value) setValue('otp', digits);
              },
            })}
          />
        )}
      </FormField>
      <FormField id="reset-new-password" label="New Password" error={errors.newPassword?.message}>
        {(control) => (
          <Input {...control} type="password" autoComplete="new-password" disabled={Boolean(done)} {...register('newPassword')} />
        )}
      </FormField>
      <FormField id="reset-confirm-password" label="Confirm Password" error={errors.confirmPassword?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            disabled={Boolean(done)}
            {...register('confirmPassword')}
          />
        )}
      </FormField>
      <SubmitButton pending={reset.isPending} disabled={Boolean(done)} size="lg" className="w-full">
        Reset Password
      </SubmitButton>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, CheckCircle2, Info, MailCheck, RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router-dom';
import type { z } from 'zod';
import { DELAY_AFTER_SUCCESS_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZVerifyOtpRequest } from '../../../shared/schemas/auth.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useResendOtp } from '@/features/auth/api/use-resend-otp.ts';
import { useVerifyOtp } from '@/features/auth/api/use-verify-otp.ts';
import { AuthShell, authLinkClass } from '@/features/auth/auth-shell.tsx';
import { readAuthState } from '@/features/auth/auth-state.ts';
import { OtpInput, normaliseOtp } from '@/features/auth/otp-input.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

type TOtpInput = z.input<typeof ZVerifyOtpRequest>;
type TOtpValues = z.output<typeof ZVerifyOtpRequest>;

/** Seconds before another code may be asked for (the server also throttles sending). */
export const RESEND_COOLDOWN_SECONDS = 30;

/** Counts down to zero, one second at a time; `restart` starts it again from `seconds`. */
function useCountdown(initial: number) {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);
  return [left, setLeft] as const;
}

/** /otp: confirms the e-mail address with the 6-digit code, which it carries in navigation state. */
export function OtpPage() {
  useDocumentTitle('Verify your email');
  const { email, reason } = readAuthState(useLocation().state);

  return (
    <AuthShell
      icon={MailCheck}
      title="Verify your email"
      description={email ? <>Enter the 6-digit code we sent to <strong className="text-navy-900">{email}</strong>.</> : undefined}
      footer={
        <Link to={paths.login} className={authLinkClass}>
          Back to login
        </Link>
      }
    >
      {email ? (
        <OtpForm email={email} reason={reason} />
      ) : (
        <div className="grid gap-4">
          <Alert variant="destructive">
            <AlertCircle aria-hidden />
            <AlertDescription>{MESSAGES.auth.emailNotProvided}</AlertDescription>
          </Alert>
          <Button asChild className="w-full">
            <Link to={paths.registration}>Create Account</Link>
          </Button>
        </div>
      )}
    </AuthShell>
  );
}

function OtpForm({ email, reason }: { email: string; reason?: 'registered' | 'unverified' }) {
  const verify = useVerifyOtp();
  const resend = useResendOtp();
  const navigateLater = useDelayedNavigate();
  // A code was sent a moment ago when the user has just registered; not when login sent them here.
  const [cooldown, setCooldown] = useCountdown(reason === 'registered' ? RESEND_COOLDOWN_SECONDS : 0);
  const [verified, setVerified] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [resendNote, setResendNote] = useState<{ ok: boolean; text: string }>();

  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<TOtpInput, unknown, TOtpValues>({
    resolver: zodResolver(ZVerifyOtpRequest),
    defaultValues: { email, otp: '' },
  });

  async function onSubmit(values: TOtpValues) {
    setFormError(undefined);
    try {
      const result = await verify.mutateAsync(values);
      setVerified(result.message || MESSAGES.auth.otpVerified);
      navigateLater(paths.login, DELAY_AFTER_SUCCESS_MS, { state: { email } });
    } catch (error) {
      setFormError(errorMessage(error, { fallback: MESSAGES.auth.otpInvalid }));
    }
  }

  async function onResend() {
    setResendNote(undefined);
    try {
      const result = await resend.mutateAsync({ email });
      setResendNote({ ok: true, text: result.message || MESSAGES.auth.otpResent });
      setCooldown(RESEND_COOLDOWN_SECONDS);
    } catch (error) {
      setResendNote({ ok: false, text: errorMessage(error, { fallback: MESSAGES.auth.otpResendFailed }) });
    }
  }

  return (
    <div className="grid gap-5">
      {reason === 'unverified' && !verified && (
        <Alert variant="warning">
          <Info aria-hidden />
          <AlertDescription>{MESSAGES.auth.emailNotVerified}</AlertDescription>
        </Alert>
      )}
      {verified && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden />
          <AlertDescription>{verified} Taking you to the login…</AlertDescription>
        </Alert>
      )}
      <FormError message={formError} />

      <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid gap-5">
        <FormField id="otp-code" label="Verification code" error={errors.otp?.message}>
          {(control) => (
            <OtpInput
              {...control}
              autoFocus
              disabled={Boolean(verified)}
              {...register('otp', {
                onChange: (event: { target: HTMLInputElement }) => {
                  const digits = normaliseOtp(event.target.value);
                  if (digits !== event.target.value) setValue('otp', digits);
                },
              })}
            />
          )}
        </FormField>
        <SubmitButton pending={verify.isPending} disabled={Boolean(verified)} size="lg" className="w-full">
          Verify
        </SubmitButton>
      </form>

      <div className="flex flex-col items-center gap-2 border-t border-border pt-5 text-sm">
        <p className="text-muted-foreground">Didn&apos;t get the code?</p>
        <Button
          variant="outline"
          onClick={() => void onResend()}
          disabled={cooldown > 0 || resend.isPending || Boolean(verified)}
        >
          <RotateCw className={resend.isPending ? 'animate-spin' : undefined} aria-hidden />
          {cooldown > 0 ? `Resend OTP in ${cooldown} s` : 'Resend OTP'}
        </Button>
        {resendNote && (
          <p role="status" className={resendNote.ok ? 'text-success' : 'font-medium text-destructive'}>
            {resendNote.text}
          </p>
        )}
      </div>
    </div>
  );
}

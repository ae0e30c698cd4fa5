import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZForgotPasswordRequest } from '../../../shared/schemas/auth.ts';
import { paths } from '@/config/paths.ts';
import { FormError } from '@/components/ui/form-error.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useForgotPassword } from '@/features/auth/api/use-forgot-password.ts';
import { AuthShell, authLinkClass } from '@/features/auth/auth-shell.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

type TForgotInput = z.input<typeof ZForgotPasswordRequest>;
type TForgotValues = z.output<typeof ZForgotPasswordRequest>;

/** /forgot-password: sends a reset code, then opens the reset screen with the e-mail. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const navigate = useNavigate();
  const forgot = useForgotPassword();
  const [formError, setFormError] = useState<string>();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TForgotInput, unknown, TForgotValues>({
    resolver: zodResolver(ZForgotPasswordRequest),
    defaultValues: { email: '' },
  });

  async function onSubmit(values: TForgotValues) {
    setFormError(undefined);
    try {
      const result = await forgot.mutateAsync(values);
      navigate(paths.resetPassword, {
        state: { email: values.email, notice: result.message || MESSAGES.auth.forgotSent },
      });
    } catch (error) {
      setFormError(errorMessage(error, { fallback: MESSAGES.auth.forgotFailed }));
    }
  }

  return (
    <AuthShell
      icon={KeyRound}
      title="Forgot password?"
      description="Enter the email address of your account and we will send you a code to set a new password."
      footer={
        <Link to={paths.login} className={authLinkClass}>
          Back to login
        </Link>
      }
    >
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid gap-5">
        <FormError message={formError} />
        <FormField id="forgot-email" label="Email Address" error={errors.email?.message}>
          {(control) => (
            <Input {...control} type="email" inputMode="email" autoComplete="email" autoFocus {...register('email')} />
          )}
        </FormField>
        <SubmitButton pending={forgot.isPending} size="lg" className="w-full">
          Send OTP
        </SubmitButton>
      </form>
    </AuthShell>
  );
}

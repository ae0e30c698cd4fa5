import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { DELAY_AFTER_REGISTRATION_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { type TRegisterForm, ZRegisterForm } from '../../../shared/schemas/auth.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useRegister } from '@/features/auth/api/use-register.ts';
import { AuthShell, authLinkClass } from '@/features/auth/auth-shell.tsx';
import { EMPTY_PERSON, PERSON_FIELDS, PersonFields } from '@/features/auth/person-fields.tsx';
import { applyFieldErrors, errorMessage } from '@/lib/api-errors.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

type TRegisterValues = z.output<typeof ZRegisterForm>;

/** /registration (and /Registration, the login screen's link): a new learner's account. */
export function RegistrationPage() {
  useDocumentTitle('Create Account');
  const registerUser = useRegister();
  const navigateLater = useDelayedNavigate();
  const [formError, setFormError] = useState<string>();
  const [done, setDone] = useState(false);

  const form = useForm<TRegisterForm, unknown, TRegisterValues>({
    resolver: zodResolver(ZRegisterForm),
    defaultValues: EMPTY_PERSON,
  });

  async function onSubmit({ confirmPassword: _confirm, ...values }: TRegisterValues) {
    setFormError(undefined);
    try {
      const result = await registerUser.mutateAsync(values);
      setDone(true);
      navigateLater(paths.otp, DELAY_AFTER_REGISTRATION_MS, { state: { email: result.email, reason: 'registered' } });
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, PERSON_FIELDS)) {
        setFormError(
          errorMessage(error, {
            fallback: MESSAGES.auth.registrationFailed,
            network: MESSAGES.auth.registrationNetworkError,
          }),
        );
      }
    }
  }

  return (
    <AuthShell
      icon={UserPlus}
      wide
      title="Create Account"
      description="Register to request courses, keep your documents and follow your training."
      footer={
        <>
          Already have an account?{' '}
          <Link to={paths.login} className={authLinkClass}>
            Login
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-6">
        {done && (
          <Alert variant="success">
            <CheckCircle2 aria-hidden />
            <AlertDescription>{MESSAGES.auth.registered}</AlertDescription>
          </Alert>
        )}
        <FormError message={formError} />
        <PersonFields form={form} idPrefix="register" disabled={done} />
        <SubmitButton pending={registerUser.isPending} disabled={done} size="lg" className="w-full">
          Register
        </SubmitButton>
      </form>
    </AuthShell>
  );
}

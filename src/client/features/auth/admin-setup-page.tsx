import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, CheckCircle2, ShieldPlus } from 'lucide-react';
import { useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { DELAY_AFTER_SUCCESS_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { ADMIN_PASSWORD_MIN_LENGTH, type TRegisterForm, ZRegisterForm } from '../../../shared/schemas/auth.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useAdminSetupStatus, useSetupAdmin } from '@/features/auth/api/use-admin-setup.ts';
import { AuthShell } from '@/features/auth/auth-shell.tsx';
import { EMPTY_PERSON, PERSON_FIELDS, PersonFields } from '@/features/auth/person-fields.tsx';
import { applyFieldErrors, errorMessage } from '@/lib/api-errors.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

type TSetupValues = z.output<typeof ZRegisterForm>;

const ADMIN_PASSWORD_SHORT = `Password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`;

/** The registration checks, then the longer password an administrator needs (the server checks both). */
const baseResolver = zodResolver(ZRegisterForm);
const setupResolver: Resolver<TRegisterForm, unknown, TSetupValues> = async (values, context, options) => {
  const result = await baseResolver(values, context, options);
  if (Object.keys(result.errors).length === 0 && values.password.length < ADMIN_PASSWORD_MIN_LENGTH) {
    return { values: {}, errors: { password: { type: 'min', message: ADMIN_PASSWORD_SHORT } } };
  }
  return result;
};

/** /admin-setup?token=...: the first administrator's account, from the one-time link the server logged. */
export function AdminSetupPage() {
  useDocumentTitle('Administrator set-up');
  const token = useSearchParams()[0].get('token') ?? '';
  const status = useAdminSetupStatus(token);

  let body;
  if (token === '' || status.data?.valid === false) {
    body = <InvalidLink message={MESSAGES.auth.adminSetupInvalid} />;
  } else if (status.isError) {
    body = <InvalidLink message={errorMessage(status.error, { fallback: MESSAGES.auth.adminSetupInvalid })} />;
  } else if (status.isPending) {
    body = (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
        <Skeleton className="h-12" />
      </div>
    );
  } else {
    body = <AdminSetupForm token={token} />;
  }

  return (
    <AuthShell
      icon={ShieldPlus}
      wide
      title="Set up the administrator"
      description="Create the academy's first administrator account. This link works once."
    >
      {body}
    </AuthShell>
  );
}

function InvalidLink({ message }: { message: string }) {
  return (
    <div className="grid gap-4">
      <Alert variant="destructive">
        <AlertCircle aria-hidden />
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <Button asChild variant="outline" className="w-full">
        <Link to={paths.adminLogin}>Administrator login</Link>
      </Button>
    </div>
  );
}

function AdminSetupForm({ token }: { token: string }) {
  const setup = useSetupAdmin();
  const navigateLater = useDelayedNavigate();
  const [done, setDone] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const form = useForm<TRegisterForm, unknown, TSetupValues>({ resolver: setupResolver, defaultValues: EMPTY_PERSON });

  async function onSubmit({ confirmPassword: _confirm, ...values }: TSetupValues) {
    setFormError(undefined);
    try {
      const result = await setup.mutateAsync({ ...values, token });
      setDone(result.message || MESSAGES.auth.adminCreated);
      navigateLater(paths.adminLogin, DELAY_AFTER_SUCCESS_MS, { state: { email: values.email } });
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, PERSON_FIELDS)) {
        setFormError(errorMessage(error, { fallback: MESSAGES.common.internal }));
      }
    }
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-6">
      {done && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden />
          <AlertDescription>{done}</AlertDescription>
        </Alert>
      )}
      <FormError message={formError} />
      <PersonFields
        form={form}
        idPrefix="admin-setup"
        disabled={Boolean(done)}
        passwordHint={`At least ${ADMIN_PASSWORD_MIN_LENGTH} characters.`}
      />
      <SubmitButton pending={setup.isPending} disabled={Boolean(done)} size="lg" className="w-full">
        Create administrator
      </SubmitButton>
    </form>
  );
}

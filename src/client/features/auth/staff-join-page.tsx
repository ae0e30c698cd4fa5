import { AlertCircle, CheckCircle2, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { DELAY_AFTER_SUCCESS_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { STAFF_ROLE_LABELS } from '../../../shared/staff-roles.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { AuthShell } from '@/features/auth/auth-shell.tsx';
import { useInvitation, useJoinStaff } from '@/features/auth/api/use-staff-join.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const PASSWORD_MIN = 12;

/** /join-staff?token=...: the invitation mail's link; the invitee sets their name and password. */
export function StaffJoinPage() {
  useDocumentTitle('Join the academy’s staff');
  const token = useSearchParams()[0].get('token') ?? '';
  const status = useInvitation(token);

  let body;
  if (token === '' || status.data?.valid === false) {
    body = <InvalidLink message={MESSAGES.staff.invitationInvalid} />;
  } else if (status.isError) {
    body = <InvalidLink message={errorMessage(status.error, { fallback: MESSAGES.staff.invitationInvalid })} />;
  } else if (!status.data) {
    body = (
      <div className="grid gap-4" aria-busy="true" aria-label="Checking the invitation">
        <Skeleton className="h-16" />
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
        <Skeleton className="h-12" />
      </div>
    );
  } else {
    body = <JoinForm token={token} email={status.data.email} role={status.data.staffRole} />;
  }

  return (
    <AuthShell icon={UserPlus} title="Join the academy’s staff" description="Set your name and password to accept the invitation. The link works once.">
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

function JoinForm({ token, email, role }: { token: string; email: string; role: keyof typeof STAFF_ROLE_LABELS }) {
  const join = useJoinStaff();
  const navigateLater = useDelayedNavigate();
  const [values, setValues] = useState({ firstName: '', lastName: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [done, setDone] = useState<string>();

  function check() {
    const found: typeof errors = {};
    if (!values.firstName.trim()) found.firstName = 'First name is required';
    if (!values.lastName.trim()) found.lastName = 'Last name is required';
    if (values.password.length < PASSWORD_MIN) found.password = `Password must be at least ${PASSWORD_MIN} characters`;
    else if (values.password !== values.confirm) found.confirm = MESSAGES.validation.passwordsDiffer;
    return found;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(undefined);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const result = await join.mutateAsync({ token, firstName: values.firstName.trim(), lastName: values.lastName.trim(), password: values.password });
      setDone(result.message);
      navigateLater(paths.adminLogin, DELAY_AFTER_SUCCESS_MS, { state: { email } });
    } catch (error) {
      setFormError(errorMessage(error, { fallback: MESSAGES.common.internal }));
    }
  }

  const field = (name: keyof typeof values, label: string, type = 'text', autoComplete?: string, hint?: string) => {
    const describedBy = [hint && `join-${name}-hint`, errors[name] && `join-${name}-error`].filter(Boolean).join(' ');
    return (
      <div className="grid gap-1.5">
        <Label htmlFor={`join-${name}`}>{label}</Label>
        <Input
          id={`join-${name}`}
          type={type}
          autoComplete={autoComplete}
          value={values[name]}
          disabled={Boolean(done)}
          onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {hint && (
          <p id={`join-${name}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
        {errors[name] && (
          <p id={`join-${name}-error`} className="text-sm text-destructive">
            {errors[name]}
          </p>
        )}
      </div>
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      {done && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden />
          <AlertDescription>{done}</AlertDescription>
        </Alert>
      )}
      <FormError message={formError} />
      <div className="rounded-lg border border-border bg-navy-50 p-3 text-sm">
        <p>
          <span className="text-muted-foreground">E-mail:</span> <strong className="text-navy-900 [overflow-wrap:anywhere]">{email}</strong>
        </p>
        <p className="mt-1">
          <span className="text-muted-foreground">Role:</span> <strong className="text-navy-900">{STAFF_ROLE_LABELS[role].label}</strong> — {STAFF_ROLE_LABELS[role].description}
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('firstName', 'First name', 'text', 'given-name')}
        {field('lastName', 'Last name', 'text', 'family-name')}
      </div>
      {field('password', 'Password', 'password', 'new-password', `At least ${PASSWORD_MIN} characters.`)}
      {field('confirm', 'Confirm password', 'password', 'new-password')}
      <SubmitButton pending={join.isPending} disabled={Boolean(done)} size="lg" className="w-full">
        Join the staff
      </SubmitButton>
    </form>
  );
}

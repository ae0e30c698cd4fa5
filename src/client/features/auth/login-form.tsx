import { zodResolver } from '@hookform/resolvers/zod';
import { Info } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZLoginRequest, type TBrowserLoginResult } from '../../../shared/schemas/auth.ts';
import type { TSecondFactorChallenge } from '../../../shared/schemas/second-factor.ts';
import { paths } from '@/config/paths.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useLogin } from '@/features/auth/api/use-login.ts';
import { authLinkClass } from '@/features/auth/auth-shell.tsx';
import { SecondFactorStep } from '@/features/auth/second-factor-step.tsx';
import { destinationAfterLogin, readAuthState } from '@/features/auth/auth-state.ts';
import { applyFieldErrors, errorMessage, httpStatusOf } from '@/lib/api-errors.ts';
import { dismissExpiredNotice, hasExpiredNotice, storeSession } from '@/lib/session/session-store.ts';

type TLoginInput = z.input<typeof ZLoginRequest>;
type TLoginValues = z.output<typeof ZLoginRequest>;

const FIELDS = ['email', 'password'] as const;

/**
 * The login form of both login screens. `audience="admin"` (the /backend screen) lets only
 * administrators in; the learners' screen sends administrators to the admin area as well.
 */
export function LoginForm({ audience }: { audience: 'everyone' | 'admin' }) {
  const navigate = useNavigate();
  const location = useLocation();
  const arrival = readAuthState(location.state);
  const [expired] = useState(hasExpiredNotice);
  const [formError, setFormError] = useState<string>();
  const mutation = useLogin(audience);
  const [challenge, setChallenge] = useState<TSecondFactorChallenge>();

  useEffect(() => dismissExpiredNotice(), []);

  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<TLoginInput, unknown, TLoginValues>({
    resolver: zodResolver(ZLoginRequest),
    defaultValues: { email: arrival.email ?? '', password: '' },
  });

  /** The refresh token came as an HttpOnly cookie; only the access token is the page's to keep. */
  function signedIn({ user, accessToken }: TBrowserLoginResult) {
    storeSession(accessToken, { _id: user.id, name: user.name, email: user.email, role: user.role, staffRole: user.staffRole });
    const destination = destinationAfterLogin(user, arrival);
    navigate(destination, { replace: true, state: destination === arrival.from ? arrival.returnState : undefined });
  }

  async function onSubmit(values: TLoginValues) {
    setFormError(undefined);
    try {
      const answer = await mutation.mutateAsync(values);
      // Right password, and a second factor to give (or to set up) before the session starts.
      if ('secondFactorRequired' in answer) setChallenge(answer);
      else signedIn(answer);
    } catch (error) {
      // 403 on the learners' login: right password, e-mail not verified yet. The OTP screen
      // explains it and can send a new code.
      if (audience === 'everyone' && httpStatusOf(error) === 403) {
        navigate(paths.otp, { state: { email: values.email, reason: 'unverified' } });
        return;
      }
      if (!applyFieldErrors(error, setError, FIELDS)) {
        setFormError(errorMessage(error, { fallback: MESSAGES.auth.loginFailed }));
      }
    }
  }

  if (challenge) {
    return (
      <SecondFactorStep
        challenge={challenge}
        onSignedIn={signedIn}
        onCancel={() => {
          setChallenge(undefined);
          setValue('password', '');
        }}
      />
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="grid gap-5">
      {expired && !formError && (
        <Alert variant="warning">
          <Info aria-hidden />
          <AlertDescription>{MESSAGES.auth.sessionExpired}</AlertDescription>
        </Alert>
      )}
      {arrival.notice && !formError && (
        <Alert variant="success">
          <Info aria-hidden />
          <AlertDescription>{arrival.notice}</AlertDescription>
        </Alert>
      )}
      <FormError message={formError} />

      <FormField id="login-email" label="Email Address" error={errors.email?.message}>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" inputMode="email" autoFocus {...register('email')} />
        )}
      </FormField>

      <FormField id="login-password" label="Password" error={errors.password?.message}>
        {(control) => <Input {...control} type="password" autoComplete="current-password" {...register('password')} />}
      </FormField>

      {audience === 'everyone' && (
        <div className="-mt-2 text-right text-sm">
          <Link to={paths.forgotPassword} className={authLinkClass}>
            Forgot password?
          </Link>
        </div>
      )}

      <SubmitButton pending={mutation.isPending} size="lg" className="w-full">
        Login
      </SubmitButton>
    </form>
  );
}

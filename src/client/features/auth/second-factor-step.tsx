import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { Fingerprint, KeyRound, ShieldCheck, Smartphone } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { TBrowserLoginResult } from '../../../shared/schemas/auth.ts';
import type { TSecondFactorChallenge, TTotpEnrolment } from '../../../shared/schemas/second-factor.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { useSignInSecondFactor } from '@/features/auth/api/use-second-factor.ts';
import { CodeInput } from '@/features/auth/code-input.tsx';
import { RecoveryCodesPanel } from '@/features/auth/recovery-codes-panel.tsx';
import { TotpSetup } from '@/features/auth/totp-setup.tsx';
import { errorMessage } from '@/lib/api-errors.ts';

const M = MESSAGES.secondFactor;

type TMode = 'code' | 'passkey' | 'recovery' | 'enrol' | 'enrol-app' | 'codes';

/** A passkey prompt the user closed or that timed out: not an error worth more than a line. */
function passkeyMessage(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey prompt was closed. Try again, or use another way.';
  return errorMessage(error, { fallback: M.passkeyFailed });
}

/**
 * The login's second step: a code from the authenticator app, a passkey or a recovery code; or,
 * for a member of staff who has none, setting one up (app or passkey) and keeping the recovery
 * codes. `onSignedIn` gets the session once the factor is given.
 */
export function SecondFactorStep({
  challenge,
  onSignedIn,
  onCancel,
}: {
  challenge: TSecondFactorChallenge;
  onSignedIn: (result: TBrowserLoginResult) => void;
  onCancel: () => void;
}) {
  const calls = useSignInSecondFactor();
  const enrol = challenge.methods.includes('enrol');
  const hasApp = challenge.methods.includes('totp');
  const hasPasskey = challenge.methods.includes('passkey') && browserSupportsWebAuthn();
  const [mode, setMode] = useState<TMode>(enrol ? 'enrol' : hasApp ? 'code' : hasPasskey ? 'passkey' : 'recovery');
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [passkeyPending, setPasskeyPending] = useState(false);
  const [app, setApp] = useState<TTotpEnrolment>();
  const [enrolled, setEnrolled] = useState<TBrowserLoginResult & { recoveryCodes: string[] }>();
  const { challengeToken } = challenge;

  function switchTo(next: TMode) {
    setMode(next);
    setFieldError(undefined);
    setFormError(undefined);
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    setFormError(undefined);
    if (mode === 'code') {
      const digits = code.replace(/\s+/g, '');
      if (!/^\d{6}$/.test(digits)) return setFieldError(M.codeFormat);
      setFieldError(undefined);
      try {
        onSignedIn(await calls.secondFactor.mutateAsync({ challengeToken, code: digits }));
      } catch (error) {
        setCode('');
        setFormError(errorMessage(error, { fallback: M.codeWrong }));
      }
    } else {
      if (!recoveryCode.trim()) return setFieldError(M.codeRequired);
      setFieldError(undefined);
      try {
        onSignedIn(await calls.secondFactor.mutateAsync({ challengeToken, recoveryCode: recoveryCode.trim() }));
      } catch (error) {
        setFormError(errorMessage(error, { fallback: M.recoveryWrong }));
      }
    }
  }

  async function usePasskey() {
    setFormError(undefined);
    setPasskeyPending(true);
    try {
      const optionsJSON = await calls.passkeyOptions.mutateAsync({ challengeToken });
      const passkey = await startAuthentication({ optionsJSON: optionsJSON as never });
      onSignedIn(await calls.secondFactor.mutateAsync({ challengeToken, passkey: passkey as unknown as Record<string, unknown> }));
    } catch (error) {
      setFormError(passkeyMessage(error));
    } finally {
      setPasskeyPending(false);
    }
  }

  async function startApp() {
    setFormError(undefined);
    try {
      setApp(await calls.enrolTotp.mutateAsync({ challengeToken }));
      setMode('enrol-app');
    } catch (error) {
      setFormError(errorMessage(error, { fallback: M.challengeExpired }));
    }
  }

  async function confirmApp(digits: string) {
    setFormError(undefined);
    try {
      setEnrolled(await calls.confirmTotp.mutateAsync({ challengeToken, code: digits }));
      setMode('codes');
    } catch (error) {
      setFormError(errorMessage(error, { fallback: M.codeWrong }));
    }
  }

  async function registerPasskey() {
    setFormError(undefined);
    setPasskeyPending(true);
    try {
      const optionsJSON = await calls.passkeyEnrolmentOptions.mutateAsync({ challengeToken });
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      setEnrolled(await calls.registerPasskey.mutateAsync({ challengeToken, response: response as unknown as Record<string, unknown> }));
      setMode('codes');
    } catch (error) {
      setFormError(passkeyMessage(error));
    } finally {
      setPasskeyPending(false);
    }
  }

  if (mode === 'codes' && enrolled) {
    const { recoveryCodes, ...session } = enrolled;
    return <RecoveryCodesPanel codes={recoveryCodes} onDone={() => onSignedIn(session)} doneLabel="Continue to the portal" />;
  }

  const back = (
    <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
      Back to login
    </Button>
  );

  if (mode === 'enrol' || mode === 'enrol-app') {
    return (
      <div className="grid gap-5">
        <Alert>
          <ShieldCheck aria-hidden />
          <AlertDescription>
            Staff sign in with a second factor. Set one up now to finish signing in: an authenticator app on your phone, or a passkey on this device.
          </AlertDescription>
        </Alert>
        <FormError message={mode === 'enrol' ? formError : undefined} />
        {mode === 'enrol-app' && app ? (
          <TotpSetup enrolment={app} pending={calls.confirmTotp.isPending} error={formError} onConfirm={confirmApp} submitLabel="Confirm and sign in" />
        ) : (
          <div className="grid gap-3">
            <Button type="button" size="lg" className="w-full" onClick={startApp} disabled={calls.enrolTotp.isPending}>
              <Smartphone aria-hidden /> {calls.enrolTotp.isPending ? 'Preparing…' : 'Set up an authenticator app'}
            </Button>
            {browserSupportsWebAuthn() && (
              <Button type="button" size="lg" variant="outline" className="w-full" onClick={registerPasskey} disabled={passkeyPending}>
                <Fingerprint aria-hidden /> {passkeyPending ? 'Waiting for the passkey…' : 'Register a passkey'}
              </Button>
            )}
          </div>
        )}
        {mode === 'enrol-app' && (
          <Button type="button" variant="ghost" className="w-full" onClick={() => switchTo('enrol')}>
            Choose another way
          </Button>
        )}
        {back}
      </div>
    );
  }

  const pending = calls.secondFactor.isPending && !passkeyPending;
  const passkeyButton = hasPasskey && (
    <Button type="button" variant={mode === 'passkey' ? 'default' : 'outline'} size={mode === 'passkey' ? 'lg' : 'default'} className="w-full" onClick={usePasskey} disabled={passkeyPending}>
      <Fingerprint aria-hidden /> {passkeyPending ? 'Waiting for the passkey…' : 'Use a passkey'}
    </Button>
  );
  return (
    <div className="grid gap-5">
      <p className="text-sm text-muted-foreground">
        {mode === 'code'
          ? 'Enter the 6-digit code from your authenticator app.'
          : mode === 'passkey'
            ? 'Confirm it is you with your passkey: your device will ask for your fingerprint, face or PIN.'
            : 'Enter one of the recovery codes you saved when you set up your second factor. Each works once.'}
      </p>
      <FormError message={formError} />
      {mode === 'passkey' ? (
        passkeyButton
      ) : (
        <form noValidate onSubmit={submitCode} className="grid gap-5">
          {mode === 'code' ? (
            <FormField id="second-factor-code" label="Authentication code" error={fieldError}>
              {(control) => <CodeInput {...control} value={code} onChange={setCode} />}
            </FormField>
          ) : (
            <FormField id="second-factor-recovery" label="Recovery code" error={fieldError}>
              {(control) => (
                <Input
                  {...control}
                  name="recoveryCode"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  autoFocus
                  className="font-mono"
                  value={recoveryCode}
                  onChange={(event) => setRecoveryCode(event.target.value)}
                />
              )}
            </FormField>
          )}
          <SubmitButton pending={pending} size="lg" className="w-full">
            Verify
          </SubmitButton>
        </form>
      )}
      <div className="grid gap-2 border-t pt-4">
        {mode !== 'passkey' && passkeyButton}
        {hasApp && mode !== 'code' && (
          <Button type="button" variant="ghost" className="w-full" onClick={() => switchTo('code')}>
            <Smartphone aria-hidden /> Use a code from the app
          </Button>
        )}
        {mode !== 'recovery' && (
          <Button type="button" variant="ghost" className="w-full" onClick={() => switchTo('recovery')}>
            <KeyRound aria-hidden /> Use a recovery code
          </Button>
        )}
        {back}
      </div>
    </div>
  );
}

import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { Fingerprint, KeyRound, ShieldCheck, Smartphone, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { TTotpEnrolment } from '../../../shared/schemas/second-factor.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useSecurity } from '@/features/auth/api/use-second-factor.ts';
import { RecoveryCodesPanel } from '@/features/auth/recovery-codes-panel.tsx';
import { TotpSetup } from '@/features/auth/totp-setup.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const M = MESSAGES.secondFactor;

function formatWhen(iso: string | null): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' }) : 'never';
}

/** /security: the learner's sign-in security, with its heading. */
export function SecurityPage() {
  useDocumentTitle('Sign-in security');
  return (
    <div className="flex-1 bg-muted/60">
      <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <header className="grid gap-1">
          <h1 className="text-2xl font-bold text-navy-900">Sign-in security</h1>
          <p className="text-muted-foreground">A second factor keeps your account safe even if someone learns your password.</p>
        </header>
        <SecurityPanels />
      </div>
    </div>
  );
}

/** The admin area's Sign-in security (its heading comes from the screen's entry). */
export function AdminSecurityPage() {
  return (
    <AdminPage {...adminPageHeadOf(paths.admin.security)}>
      <div className="grid gap-6">
        <SecurityPanels />
      </div>
    </AdminPage>
  );
}

/**
 * The account's sign-in security, for staff and learners: the second factors (authenticator apps
 * and passkeys), adding and removing them, and a new set of recovery codes.
 */
function SecurityPanels() {
  const security = useSecurity();
  const [app, setApp] = useState<TTotpEnrolment>();
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const [passkeyPending, setPasskeyPending] = useState(false);
  const overview = security.overview.data;

  async function addApp() {
    setError(undefined);
    try {
      setApp(await security.startTotp.mutateAsync());
    } catch (err) {
      setError(errorMessage(err, { fallback: 'The authenticator app could not be set up. Please try again.' }));
    }
  }

  async function confirmApp(code: string) {
    setError(undefined);
    try {
      const result = await security.confirmTotp.mutateAsync({ code });
      setApp(undefined);
      toast.success('Authenticator app added.');
      if (result.recoveryCodes.length > 0) setCodes(result.recoveryCodes);
    } catch (err) {
      setError(errorMessage(err, { fallback: M.codeWrong }));
    }
  }

  async function addPasskey() {
    setError(undefined);
    setPasskeyPending(true);
    try {
      const optionsJSON = await security.passkeyOptions.mutateAsync();
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      const result = await security.registerPasskey.mutateAsync({ response: response as unknown as Record<string, unknown> });
      toast.success('Passkey added.');
      if (result.recoveryCodes.length > 0) setCodes(result.recoveryCodes);
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      setError(name === 'NotAllowedError' || name === 'AbortError' ? 'The passkey prompt was closed.' : errorMessage(err, { fallback: M.passkeyFailed }));
    } finally {
      setPasskeyPending(false);
    }
  }

  async function remove(factorId: string, label: string) {
    if (!window.confirm(`Remove “${label}”? You will no longer be able to sign in with it.`)) return;
    setError(undefined);
    try {
      await security.removeFactor.mutateAsync({ factorId });
      toast.success(M.removed);
    } catch (err) {
      setError(errorMessage(err, { fallback: 'The sign-in method could not be removed. Please try again.' }));
    }
  }

  async function regenerate() {
    if (!window.confirm('Make new recovery codes? The codes you have now will stop working.')) return;
    setError(undefined);
    try {
      setCodes((await security.regenerate.mutateAsync()).recoveryCodes);
    } catch (err) {
      setError(errorMessage(err, { fallback: 'New recovery codes could not be made. Please try again.' }));
    }
  }

  return (
    <>
        <FormError message={error} />

        {codes ? (
          <Card>
            <CardContent className="pt-6">
              <RecoveryCodesPanel codes={codes} onDone={() => setCodes(undefined)} doneLabel="Done" />
            </CardContent>
          </Card>
        ) : null}

        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Second factors</h2>
            </CardTitle>
            <CardDescription>
              {overview?.required
                ? 'The academy asks staff for a second factor at every sign-in: keep at least one.'
                : 'When you have one, your sign-in asks for it after your password.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {security.overview.isPending ? (
              <div className="grid gap-2" aria-label="Loading your sign-in methods" role="status">
                <Skeleton className="h-12 w-full" />
                <Skeleton className="h-12 w-full" />
              </div>
            ) : security.overview.isError ? (
              <Alert variant="destructive">
                <AlertDescription>
                  Your sign-in methods could not be loaded.{' '}
                  <Button type="button" variant="outline" size="sm" onClick={() => void security.overview.refetch()}>
                    Try again
                  </Button>
                </AlertDescription>
              </Alert>
            ) : overview && overview.factors.length === 0 ? (
              <p className="rounded-md border border-dashed p-4 text-sm text-muted-foreground">No second factor yet. Add an authenticator app or a passkey below.</p>
            ) : (
              <ul className="grid gap-2" aria-label="Your sign-in methods">
                {overview?.factors.map((factor) => (
                  <li key={factor.id} className="flex flex-wrap items-center gap-3 rounded-md border bg-background p-3">
                    {factor.kind === 'totp' ? <Smartphone aria-hidden className="size-5" /> : <Fingerprint aria-hidden className="size-5" />}
                    <div className="grid min-w-0 flex-1">
                      <span className="font-medium">{factor.label}</span>
                      <span className="text-xs text-muted-foreground">
                        {factor.kind === 'totp' ? 'Authenticator app' : 'Passkey'} · added {formatWhen(factor.createdAt)} · last used {formatWhen(factor.lastUsedAt)}
                      </span>
                    </div>
                    <Button type="button" variant="outline" size="sm" onClick={() => remove(factor.id, factor.label)} disabled={security.removeFactor.isPending}>
                      <Trash2 aria-hidden /> Remove<span className="sr-only"> {factor.label}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            )}

            {app ? (
              <div className="rounded-md border bg-background p-4">
                <TotpSetup enrolment={app} pending={security.confirmTotp.isPending} onConfirm={confirmApp} submitLabel="Add the app" />
                <Button type="button" variant="ghost" className="mt-2 w-full" onClick={() => setApp(undefined)}>
                  Cancel
                </Button>
              </div>
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button type="button" onClick={addApp} disabled={security.startTotp.isPending}>
                  <Smartphone aria-hidden /> {security.startTotp.isPending ? 'Preparing…' : 'Add an authenticator app'}
                </Button>
                {browserSupportsWebAuthn() && (
                  <Button type="button" variant="outline" onClick={addPasskey} disabled={passkeyPending}>
                    <Fingerprint aria-hidden /> {passkeyPending ? 'Waiting for the passkey…' : 'Add a passkey'}
                  </Button>
                )}
              </div>
            )}
          </CardContent>
        </Card>

        {overview && overview.factors.length > 0 && (
          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Recovery codes</h2>
              </CardTitle>
              <CardDescription>
                {overview.recoveryCodesLeft} of 10 left. Each signs you in once when your phone or passkey is not at hand.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Button type="button" variant="outline" onClick={regenerate} disabled={security.regenerate.isPending}>
                <KeyRound aria-hidden /> {security.regenerate.isPending ? 'Making new codes…' : 'Make new recovery codes'}
              </Button>
            </CardContent>
          </Card>
        )}

        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          <ShieldCheck aria-hidden className="size-4" /> Lost every factor? Staff: ask another owner to reset it. Learners: contact the academy.
        </p>
    </>
  );
}

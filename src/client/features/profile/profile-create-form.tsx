import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { MESSAGES } from '../../../shared/messages.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { Label } from '@/components/ui/label.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { UploadProgress } from '@/components/upload/upload-progress.tsx';
import { ProfileFormFields } from '@/features/profile/profile-form-fields.tsx';
import {
  ZProfileCreateForm,
  emptyProfileValues,
  toFormData,
  type TProfileCreateFormOutput,
  type TProfileFormValues,
} from '@/features/profile/profile-form-schema.ts';
import { profileUploadLabel, useProfileSubmit } from '@/features/profile/use-profile-submit.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';

const resolver = zodResolver(ZProfileCreateForm) as unknown as Resolver<TProfileFormValues, unknown, TProfileCreateFormOutput>;

/** Why the documents are collected and who sees them; the learner accepts it before submitting. */
function DocumentsNotice() {
  return (
    <Alert>
      <ShieldCheck aria-hidden />
      <AlertTitle>Why we ask for these documents</AlertTitle>
      <AlertDescription>
        <p>
          The academy checks your identity, passport, CDC and INDOS number before it approves your account, enrols you
          in courses and issues certificates in your name, as maritime training rules require.
        </p>
        <p className="mt-2">
          Only you and the academy&apos;s staff can see your details and files. They are never public: each view uses
          a private link that stops working after a few minutes.
        </p>
      </AlertDescription>
    </Alert>
  );
}

/** The profile creation form (spec sections 2 and 5), shown on /profile until a profile exists. */
export function ProfileCreateForm() {
  const form = useForm<TProfileFormValues, unknown, TProfileCreateFormOutput>({
    resolver,
    defaultValues: emptyProfileValues(readStoredUser()?.name ?? ''),
  });
  const {
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  const { submit, percent, cancel, formError, saved } = useProfileSubmit(form, {
    action: 'create',
    savedMessage: MESSAGES.profile.submitted,
    failedMessage: MESSAGES.profile.submitFailed,
    cancelledMessage: 'Upload cancelled. Nothing was saved.',
  });
  const busy = isSubmitting || saved;

  async function onValid(values: TProfileCreateFormOutput) {
    await submit(toFormData(values));
  }

  function onInvalid() {
    toast.error(MESSAGES.validation.fillProfile);
  }

  return (
    <form noValidate onSubmit={handleSubmit(onValid, onInvalid)} className="grid gap-6" aria-label="Create your profile">
      <ProfileFormFields form={form} disabled={busy} />

      <div className="grid gap-4">
        <DocumentsNotice />
        <div className="grid gap-2">
          <div className="flex items-start gap-3">
            <Controller
              control={control}
              name="consent"
              render={({ field }) => (
                <Checkbox
                  id="profile-consent"
                  ref={field.ref}
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  disabled={busy}
                  aria-invalid={errors.consent ? true : undefined}
                  aria-describedby={errors.consent ? 'profile-consent-error' : undefined}
                  className="mt-0.5"
                />
              )}
            />
            <Label htmlFor="profile-consent" className="leading-snug font-normal">
              I have read this notice and agree that the academy keeps these details and documents to verify my identity
              and training record.
            </Label>
          </div>
          {errors.consent?.message && (
            <p id="profile-consent-error" className="text-sm font-medium text-destructive">
              {errors.consent.message}
            </p>
          )}
        </div>
      </div>

      <FormError message={formError} />
      {percent !== null && <UploadProgress percent={percent} label={profileUploadLabel(percent)} onCancel={cancel} />}

      <div className="flex justify-end">
        <SubmitButton pending={busy} size="lg" className="w-full sm:w-auto">
          {saved ? 'Profile submitted' : 'Submit Profile'}
        </SubmitButton>
      </div>
    </form>
  );
}

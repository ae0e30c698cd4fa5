import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft } from 'lucide-react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { MESSAGES } from '../../../shared/messages.ts';
import { ZProfile, type TProfile } from '../../../shared/schemas/profile.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormError } from '@/components/ui/form-error.tsx';
import { SubmitButton } from '@/components/ui/submit-button.tsx';
import { UploadProgress } from '@/components/upload/upload-progress.tsx';
import { useMyProfile } from '@/features/profile/api/use-my-profile.ts';
import { ProfileFormFields } from '@/features/profile/profile-form-fields.tsx';
import {
  ZProfileEditForm,
  profileToValues,
  toFormData,
  type TProfileEditFormOutput,
  type TProfileFormValues,
} from '@/features/profile/profile-form-schema.ts';
import { profileUploadLabel, useProfileSubmit } from '@/features/profile/use-profile-submit.ts';
import { readAccessToken } from '@/lib/session/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const resolver = zodResolver(ZProfileEditForm) as unknown as Resolver<TProfileFormValues, unknown, TProfileEditFormOutput>;

/** The profile carried in navigation state by the Edit Profile button, if it is one. */
function profileFromState(state: unknown): TProfile | undefined {
  if (!state || typeof state !== 'object' || !('profile' in state)) return undefined;
  const parsed = ZProfile.safeParse(state.profile);
  return parsed.success ? parsed.data : undefined;
}

function ProfileEditForm({ profile }: { profile: TProfile }) {
  // Fresh signed links for the current files, once the profile query answers.
  const fresh = useMyProfile().data ?? profile;
  const form = useForm<TProfileFormValues, unknown, TProfileEditFormOutput>({
    resolver,
    defaultValues: profileToValues(profile),
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;
  const { submit, percent, cancel, formError, setFormError, saved } = useProfileSubmit(form, {
    action: 'update',
    savedMessage: MESSAGES.profile.updated,
    failedMessage: MESSAGES.profile.updateFailed,
    cancelledMessage: 'Upload cancelled. Your profile was not changed.',
  });
  const busy = isSubmitting || saved;

  async function onValid(values: TProfileEditFormOutput) {
    if (!readAccessToken()) {
      toast.error(MESSAGES.auth.notLoggedIn);
      setFormError(MESSAGES.auth.notLoggedIn);
      return;
    }
    await submit(toFormData(values));
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(MESSAGES.validation.fillProfile))}
      className="grid gap-6"
      aria-label="Edit your profile"
    >
      <ProfileFormFields form={form} current={fresh} disabled={busy} />
      <FormError message={formError} />
      {percent !== null && <UploadProgress percent={percent} label={profileUploadLabel(percent)} onCancel={cancel} />}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button asChild variant="outline" size="lg" aria-disabled={busy || undefined}>
          <Link to={paths.profile}>Cancel</Link>
        </Button>
        <SubmitButton pending={busy} size="lg">
          {saved ? 'Saved' : 'Save Changes'}
        </SubmitButton>
      </div>
    </form>
  );
}

/**
 * /updateUserProfile: the profile edit form (spec section 2). It edits the profile the Edit Profile
 * button carried in navigation state; opened any other way it returns to /profile.
 */
export function ProfileEditPage() {
  const location = useLocation();
  const profile = profileFromState(location.state);
  useDocumentTitle('Edit Profile');
  if (!profile) return <Navigate to={paths.profile} replace />;

  return (
    <div className="flex-1 bg-muted/60">
      <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <header className="grid gap-3">
          <Link
            to={paths.profile}
            className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium text-sea-700 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            <ArrowLeft className="size-4" aria-hidden />
            Back to profile
          </Link>
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Edit Profile</h1>
            <p className="mt-2 max-w-2xl text-muted-foreground">
              Keep your details in step with your documents. Files you do not replace stay as they are.
            </p>
          </div>
        </header>
        <ProfileEditForm profile={profile} />
      </div>
    </div>
  );
}

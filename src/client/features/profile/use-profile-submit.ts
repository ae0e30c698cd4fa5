import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { DELAY_AFTER_PROFILE_SUBMIT_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/config/paths.ts';
import { useSaveProfile } from '@/features/profile/api/save-profile.ts';
import type { TProfileFormValues } from '@/features/profile/profile-form-schema.ts';
import { applyUploadRefusal } from '@/features/profile/upload-refusal.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';

type TProfileSubmitOptions = {
  action: 'create' | 'update';
  savedMessage: string;
  failedMessage: string;
  cancelledMessage: string;
};

/** What the profile forms' progress bar says. */
export function profileUploadLabel(percent: number): string {
  return percent >= 100 ? 'Files sent. Checking and saving your profile…' : `Uploading your documents… ${percent}%`;
}

/**
 * Sending the profile form, shared by creation and editing: the upload with its progress, the
 * success toast and the move to /profile after 1.5 s, the server's refusal put on the form's
 * fields, cancellation and a lost connection.
 */
export function useProfileSubmit(
  form: Pick<UseFormReturn<TProfileFormValues, unknown, never>, 'getValues' | 'setError'>,
  options: TProfileSubmitOptions,
) {
  const navigateLater = useDelayedNavigate();
  const { percent, cancel, save, showSaved, reloadProfile } = useSaveProfile(options.action);
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);

  async function submit(body: FormData) {
    setFormError(undefined);
    const result = await save(body);
    switch (result.outcome) {
      case 'saved':
        setSaved(true);
        toast.success(options.savedMessage);
        navigateLater(paths.profile, DELAY_AFTER_PROFILE_SUBMIT_MS, { replace: true }, () => showSaved(result.saved));
        return;
      case 'cancelled':
        toast.info(options.cancelledMessage);
        return;
      case 'network':
        toast.error(options.failedMessage);
        setFormError(MESSAGES.common.networkError);
        return;
      case 'refused':
        // A 401 the upload could not renew has already sent the learner to log in.
        if (result.status === 401) return;
        toast.error(options.failedMessage);
        // A profile already exists (created in another tab, say): show it.
        if (options.action === 'create' && result.status === 409) reloadProfile();
        setFormError(applyUploadRefusal(result, form.getValues(), form.setError));
    }
  }

  return { submit, percent, cancel, formError, setFormError, saved };
}

import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { DELAY_AFTER_PROFILE_SUBMIT_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { paths } from '@/app/paths.ts';
import type { TProfileFormValues } from '@/features/profile/profile-form-schema.ts';
import { UploadCancelledError } from '@/features/profile/profile-upload.ts';
import { applyUploadRefusal } from '@/features/profile/upload-refusal.ts';
import { useProfileUpload } from '@/features/profile/use-profile-upload.ts';
import { trpc } from '@/lib/trpc.ts';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate.ts';

type TProfileSubmitOptions = {
  method: 'POST' | 'PUT';
  url: string;
  savedMessage: string;
  failedMessage: string;
  cancelledMessage: string;
  /** Called with the status of a refusal, after the failure toast. */
  onRefused?: (status: number) => void;
};

/**
 * Sending the profile form, shared by creation and editing: the upload with its progress, the
 * success toast and the move to /profile after 1.5 s, the server's refusal put on the form's
 * fields, cancellation and a lost connection.
 */
export function useProfileSubmit(
  form: Pick<UseFormReturn<TProfileFormValues, unknown, never>, 'getValues' | 'setError'>,
  options: TProfileSubmitOptions,
) {
  const utils = trpc.useUtils();
  const navigateLater = useDelayedNavigate();
  const { percent, upload, cancel } = useProfileUpload();
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState(false);

  async function submit(body: FormData) {
    setFormError(undefined);
    try {
      const answer = await upload(options.method, options.url, body);
      if (answer.ok) {
        setSaved(true);
        toast.success(options.savedMessage);
        navigateLater(paths.profile, DELAY_AFTER_PROFILE_SUBMIT_MS, { replace: true }, () => {
          utils.profiles.mine.setData(undefined, answer.saved.data);
          void utils.profiles.mine.invalidate();
        });
        return;
      }
      // A 401 the upload could not renew has already sent the learner to log in.
      if (answer.status === 401) return;
      toast.error(options.failedMessage);
      options.onRefused?.(answer.status);
      setFormError(applyUploadRefusal(answer, form.getValues(), form.setError));
    } catch (error) {
      if (error instanceof UploadCancelledError) {
        toast.info(options.cancelledMessage);
        return;
      }
      toast.error(options.failedMessage);
      setFormError(MESSAGES.common.networkError);
    }
  }

  return { submit, percent, cancel, formError, setFormError, saved };
}

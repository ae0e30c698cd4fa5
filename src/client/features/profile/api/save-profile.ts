import { ZProfileSaved, type TProfileSaved } from '../../../../shared/schemas/profile.ts';
import { fromSpecProfile } from '../../../../shared/spec-fields.ts';
import { paths } from '@/config/paths.ts';
import { trpc } from '@/lib/trpc.ts';
import type { TUploadResult } from '@/lib/upload/send-form.ts';
import { useUpload } from '@/lib/upload/use-upload.ts';

/** Where each form goes: creation POSTs the first profile, editing PUTs the changes. */
const PROFILE_ROUTES = {
  create: { method: 'POST', url: '/api/userProfile' },
  update: { method: 'PUT', url: '/api/userProfile/update' },
} as const;

export type TProfileRefusal = Extract<TUploadResult, { outcome: 'refused' }>;

/** How sending the profile ended; `saved` carries the stored profile as the server answered it. */
type TProfileSaveResult = { outcome: 'saved'; saved: TProfileSaved } | Exclude<TUploadResult, { outcome: 'saved' }>;

/**
 * Sends the profile form (multipart, with its files) with upload progress and a way to cancel; a
 * learner whose session cannot be renewed logs in again at /login. `showSaved` puts the saved
 * profile in the cache (and reloads it); `reloadProfile` fetches it afresh.
 */
export function useSaveProfile(action: keyof typeof PROFILE_ROUTES) {
  const utils = trpc.useUtils();
  const { percent, upload, cancel } = useUpload({ loginPath: paths.login });

  async function save(body: FormData): Promise<TProfileSaveResult> {
    const result = await upload({ ...PROFILE_ROUTES[action], body });
    if (result.outcome !== 'saved') return result;
    // The REST answer names the profile's keys as the spec does.
    const answer = result.body && typeof result.body === 'object' ? (result.body as { message?: unknown; data?: unknown }) : {};
    const parsed = ZProfileSaved.safeParse({ message: answer.message, data: fromSpecProfile(answer.data) });
    // Accepted but unreadable: treated as a refusal without words.
    return parsed.success ? { outcome: 'saved', saved: parsed.data } : { outcome: 'refused', status: result.status };
  }

  function showSaved(saved: TProfileSaved) {
    utils.profiles.mine.setData(undefined, saved.data);
    void utils.profiles.mine.invalidate();
  }

  function reloadProfile() {
    void utils.profiles.mine.invalidate();
  }

  return { percent, cancel, save, showSaved, reloadProfile };
}

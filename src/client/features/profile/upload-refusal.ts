import type { UseFormSetError } from 'react-hook-form';
import { MESSAGES } from '../../../shared/messages.ts';
import { PROFILE_FILES, PROFILE_FILE_FIELDS, type TProfileFileField } from '../../../shared/schemas/profile.ts';
import { fromSpecFieldErrors, PROFILE_SPEC_NAMES } from '../../../shared/spec-fields.ts';
import type { TProfileRefusal } from '@/features/profile/api/save-profile.ts';
import { PROFILE_FORM_FIELDS, type TProfileFormValues } from '@/features/profile/profile-form-schema.ts';

/**
 * Which file a 413 or 415 is about when the answer names no field (the server names it; a proxy's
 * own 413 does not): a size message names the file's label; a type message is the field's own
 * ('Must be an image' only fits the picture), else the first sent file whose bytes did not look
 * right here, else the first sent.
 */
function refusedFile(refusal: TProfileRefusal, values: TProfileFormValues): TProfileFileField | undefined {
  const message = refusal.message ?? '';
  const sent = PROFILE_FILE_FIELDS.filter((field) => values[field]);
  if (refusal.status === 413) return sent.find((field) => message.startsWith(PROFILE_FILES[field].label)) ?? sent[0];
  if (refusal.status === 415) {
    const candidates = sent.filter((field) => PROFILE_FILES[field].wrongType === message);
    const pool = candidates.length > 0 ? candidates : sent;
    return pool.find((field) => !values[field]?.kind) ?? pool[0];
  }
  return undefined;
}

/**
 * Puts the server's refusal on the form: its per-field messages inline, a refused file's message
 * on that file. Returns the message still to show above the form (none when every word of it
 * already sits on a field).
 */
export function applyUploadRefusal(
  refusal: TProfileRefusal,
  values: TProfileFormValues,
  setError: UseFormSetError<TProfileFormValues>,
): string | undefined {
  let placed = false;
  const known = new Set<string>(PROFILE_FORM_FIELDS);
  // The REST answer names the fields as the spec spells them.
  for (const [field, message] of Object.entries(fromSpecFieldErrors(PROFILE_SPEC_NAMES, refusal.errors ?? {}))) {
    if (!known.has(field)) continue;
    setError(field as (typeof PROFILE_FORM_FIELDS)[number], { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  if (placed) return undefined;
  const file = refusedFile(refusal, values);
  if (file && refusal.message) {
    setError(file, { type: 'server', message: refusal.message }, { shouldFocus: true });
    return undefined;
  }
  if (refusal.status === 413) return refusal.message ?? MESSAGES.files.tooLarge;
  return refusal.message;
}

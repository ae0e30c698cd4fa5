import { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { PROFILE_FIELD_LABELS, type TProfileTextField } from '../../../shared/profile-fields.ts';
import {
  PROFILE_FILES,
  PROFILE_FILE_FIELDS,
  ZProfileConsentAccepted,
  ZProfileFields,
  type TProfile,
  type TProfileFileField,
} from '../../../shared/schemas/profile.ts';
import { PROFILE_SPEC_NAMES, toSpecName } from '../../../shared/spec-fields.ts';

/**
 * The server's default limit per file (PROFILE_FILE_MAX_BYTES). The server may be set to another
 * figure and decides in the end; this only spares a learner a long upload that would be refused.
 */
export const PROFILE_FILE_MAX_BYTES = 5 * 1024 * 1024;
const MAX_SIZE_TEXT = '5 MB';

export type TFileKind = 'png' | 'jpeg' | 'pdf';
const KIND_MIME: Record<TFileKind, string> = { png: 'image/png', jpeg: 'image/jpeg', pdf: 'application/pdf' };

/** A file the learner picked, with the type its first bytes show (as the server decides it). */
export type TPickedFile = {
  file: File;
  kind: TFileKind | null;
  /** An object URL of an image file, for its preview; revoked when the file is replaced or removed. */
  previewUrl?: string;
};

/** The file's type from its first bytes, like the server's check: a renamed file is not fooled. */
export async function sniffFileKind(file: File): Promise<TFileKind | null> {
  const bytes = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf';
  return null;
}

export function isImageKind(kind: TFileKind | null): boolean {
  return kind === 'png' || kind === 'jpeg';
}

/** The `accept` attribute for a file field: its MIME types and extensions. */
export function acceptAttribute(field: TProfileFileField): string {
  const spec = PROFILE_FILES[field];
  return [...spec.accept, ...spec.extensions.map((extension) => `.${extension}`)].join(',');
}

function pickedFile(field: TProfileFileField, required: boolean) {
  const spec = PROFILE_FILES[field];
  return z.custom<TPickedFile | null>((value) => value === null || value === undefined || typeof value === 'object').superRefine(
    (value, context) => {
      if (!value) {
        if (required) context.addIssue({ code: 'custom', message: MESSAGES.profile.required(spec.label) });
        return;
      }
      const accepted: readonly string[] = spec.accept;
      if (!value.kind || !accepted.includes(KIND_MIME[value.kind])) {
        context.addIssue({ code: 'custom', message: spec.wrongType });
      } else if (value.file.size > PROFILE_FILE_MAX_BYTES) {
        context.addIssue({ code: 'custom', message: MESSAGES.profile.fileTooLarge(spec.label, MAX_SIZE_TEXT) });
      }
    },
  );
}

/** India is the default country (spec section 9): a bare 10-digit number gets +91. */
export function withIndiaCode(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const digits = value.replace(/[\s()-]/g, '');
  return /^\d{10}$/.test(digits) ? `+91${digits}` : value;
}

const phone = z.preprocess(withIndiaCode, ZProfileFields.shape.phone);
const files = (required: boolean) => ({
  profilePicture: pickedFile('profilePicture', required),
  idDocument: pickedFile('idDocument', required),
  signature: pickedFile('signature', required),
});

/** The creation form: every field, the notice accepted and all three files (spec section 5). */
export const ZProfileCreateForm = ZProfileFields.extend({ consent: ZProfileConsentAccepted, phone, ...files(true) });
/** The edit form: the same rules, but a file is only sent when the learner picks a new one. */
export const ZProfileEditForm = ZProfileFields.extend({ phone, ...files(false) });
export type TProfileCreateFormOutput = z.output<typeof ZProfileCreateForm>;
export type TProfileEditFormOutput = z.output<typeof ZProfileEditForm>;

/** What the form holds while the learner types. */
export type TProfileFormValues = Record<TProfileTextField, string> & { consent: boolean } & Record<TProfileFileField, TPickedFile | null>;

export const PROFILE_TEXT_FIELDS = Object.keys(PROFILE_FIELD_LABELS) as TProfileTextField[];
/** Every field name the server may put an error on, in the form's order. */
export const PROFILE_FORM_FIELDS = [...PROFILE_TEXT_FIELDS, ...PROFILE_FILE_FIELDS, 'consent'] as const;

export function emptyProfileValues(name = ''): TProfileFormValues {
  const text = Object.fromEntries(PROFILE_TEXT_FIELDS.map((field) => [field, ''])) as Record<TProfileTextField, string>;
  return { ...text, name, consent: false, profilePicture: null, idDocument: null, signature: null };
}

export function profileToValues(profile: TProfile): TProfileFormValues {
  const text = Object.fromEntries(
    PROFILE_TEXT_FIELDS.map((field) => {
      const value = profile[field];
      const isDate = field === 'dateOfBirth' || field === 'passportExpiryDate' || field === 'cdcExpiryDate';
      return [field, isDate ? value.slice(0, 10) : value];
    }),
  ) as Record<TProfileTextField, string>;
  return { ...text, consent: true, profilePicture: null, idDocument: null, signature: null };
}

/**
 * The multipart body the REST routes read, under the spec's field names as every client of those
 * routes sends it: the checked text fields, the consent, the picked files.
 */
export function toFormData(values: TProfileEditFormOutput & { consent?: true }): FormData {
  const body = new FormData();
  const wireName = (field: string) => toSpecName(PROFILE_SPEC_NAMES, field);
  for (const field of PROFILE_TEXT_FIELDS) body.append(wireName(field), String(values[field]));
  if (values.consent) body.append('consent', 'true');
  for (const field of PROFILE_FILE_FIELDS) {
    const picked = values[field];
    if (picked) body.append(wireName(field), picked.file, picked.file.name);
  }
  return body;
}

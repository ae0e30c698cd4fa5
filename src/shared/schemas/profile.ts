import { z } from 'zod';
import { ID_TYPES, PHONE_PATTERN, PROFILE_SEARCH_MAX_LENGTH, type TIdType } from '../constants.ts';
import { IDENTITY_STATES, INDOS_PATTERN } from '../identity.ts';
import { MESSAGES } from '../messages.ts';
import { PROFILE_FIELD_LABELS, type TProfileTextField } from '../profile-fields.ts';
import { plainText, presentText, printedName, requestObject, ZId } from './common.ts';
import { pageFields, pageOf } from './paging.ts';

const P = MESSAGES.profile;
const V = MESSAGES.validation;


/** The three files, by field, with what each accepts (for `accept` and checks). */
export const PROFILE_FILES = {
  profilePicture: { label: 'Profile Picture', accept: ['image/jpeg', 'image/png'], extensions: ['jpg', 'jpeg', 'png'], wrongType: V.mustBeImage },
  idDocument: { label: 'ID Document', accept: ['application/pdf', 'image/jpeg', 'image/png'], extensions: ['pdf', 'jpg', 'jpeg', 'png'], wrongType: V.mustBeImageOrPdf },
  signature: { label: 'Signature', accept: ['application/pdf', 'image/jpeg', 'image/png'], extensions: ['pdf', 'jpg', 'jpeg', 'png'], wrongType: V.mustBeImageOrPdf },
} as const;
export type TProfileFileField = keyof typeof PROFILE_FILES;
export const PROFILE_FILE_FIELDS = Object.keys(PROFILE_FILES) as TProfileFileField[];

export const PROFILE_TEXT_MAX_LENGTH = 100;
export const ADDRESS_MAX_LENGTH = 200;
export const DOCUMENT_NUMBER_MAX_LENGTH = 30;
const EARLIEST_BIRTH = '1900-01-01';
const EXPIRY_RANGE = { min: '1980-01-01', max: '2099-12-31' } as const;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DOCUMENT_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 /-]*$/;
const ZIP_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;

const required = (field: TProfileTextField) => presentText(PROFILE_FIELD_LABELS[field], P.required(PROFILE_FIELD_LABELS[field]));

function text(field: TProfileTextField, max = PROFILE_TEXT_MAX_LENGTH) {
  const label = PROFILE_FIELD_LABELS[field];
  return required(field).pipe(plainText(label, max).refine((value) => !/[<>]/.test(value), V.badCharacters(label)));
}

/** Passport, CDC and INDOS numbers: letters and digits (spaces, hyphens, slashes between), upper case. */
function documentNumber(field: TProfileTextField) {
  const label = PROFILE_FIELD_LABELS[field];
  return required(field)
    .max(DOCUMENT_NUMBER_MAX_LENGTH, V.tooLong(label, DOCUMENT_NUMBER_MAX_LENGTH))
    .regex(DOCUMENT_NUMBER, V.badCharacters(label))
    .transform((value) => value.toUpperCase());
}

/** Today's date (UTC) as YYYY-MM-DD. */
export function isoToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A calendar date as YYYY-MM-DD; a full ISO timestamp is cut to its date. */
function isoDate(field: TProfileTextField, range: (value: string) => boolean, outOfRange: string) {
  const label = PROFILE_FIELD_LABELS[field];
  return required(field)
    .refine((value) => {
      const match = ISO_DATE.exec(value);
      if (!match) return false;
      const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
      const date = new Date(Date.UTC(year, month - 1, day));
      return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    }, P.invalidDate(label))
    .transform((value) => value.slice(0, 10))
    .refine(range, outOfRange);
}

const ID_TYPE_CODES = ID_TYPES.map((type) => type.code) as [TIdType, ...TIdType[]];
/** Older clients send the label (and the creation form spelled it 'Aadhar'). */
const ID_TYPE_ALIASES: Record<string, TIdType> = {
  ...Object.fromEntries(ID_TYPES.map((type) => [type.label.toLowerCase(), type.code])),
  aadhar: 'aadhaar',
  'driving licence': 'driving_license',
};

export function idTypeLabel(code: TIdType): string {
  return ID_TYPES.find((type) => type.code === code)?.label ?? code;
}

/**
 * The profile's text fields, as the creation and edit forms carry them and the REST multipart
 * bodies do once their names are translated. Unknown keys are dropped, so a smuggled `role`,
 * `approved` or `userId` has no effect.
 */
export const ZProfileFields = z.object({
  // The name certificates print (decision 064).
  name: required('name').pipe(printedName(PROFILE_FIELD_LABELS.name, PROFILE_TEXT_MAX_LENGTH)),
  gradeNumber: text('gradeNumber', 50),
  phone: required('phone')
    .transform((value) => value.replace(/[\s()-]/g, ''))
    .pipe(z.string().regex(PHONE_PATTERN, V.phone)),
  dateOfBirth: isoDate('dateOfBirth', (value) => value >= EARLIEST_BIRTH && value < isoToday(), P.birthRange),
  passportNumber: documentNumber('passportNumber'),
  passportExpiryDate: isoDate(
    'passportExpiryDate',
    (value) => value >= EXPIRY_RANGE.min && value <= EXPIRY_RANGE.max,
    P.expiryRange(PROFILE_FIELD_LABELS.passportExpiryDate),
  ),
  // Two digits, two letters, four digits; spaces and hyphens typed between them are dropped.
  indosNo: required('indosNo')
    .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
    .pipe(z.string().regex(INDOS_PATTERN, P.indosFormat)),
  cdcNumber: documentNumber('cdcNumber'),
  cdcExpiryDate: isoDate(
    'cdcExpiryDate',
    (value) => value >= EXPIRY_RANGE.min && value <= EXPIRY_RANGE.max,
    P.expiryRange(PROFILE_FIELD_LABELS.cdcExpiryDate),
  ),
  idType: required('idType')
    .transform((value) => ID_TYPE_ALIASES[value.toLowerCase()] ?? value)
    .pipe(z.enum(ID_TYPE_CODES, { error: P.idType })),
  streetAddress: text('streetAddress', ADDRESS_MAX_LENGTH),
  city: text('city'),
  state: text('state'),
  country: text('country'),
  zipCode: required('zipCode')
    .max(12, V.tooLong(PROFILE_FIELD_LABELS.zipCode, 12))
    .regex(ZIP_CODE, V.badCharacters(PROFILE_FIELD_LABELS.zipCode)),
});
export type TProfileFields = z.output<typeof ZProfileFields>;

/** A checkbox as a form (true) or a multipart body ('true', 'on', '1') sends it. */
const ticked = (value: unknown) => value === true || value === 'true' || value === 'on' || value === '1';

/** The creation form asks for the learner's acceptance of the notice on why the documents are collected. */
export const ZProfileConsentAccepted = z.preprocess(ticked, z.literal(true, { error: P.consentRequired }));

/**
 * Creation as the REST path takes it: a client written to the spec sends no `consent`, and its
 * profile records that no consent was captured (the time of acceptance stays empty).
 */
export const ZProfileCreateFields = ZProfileFields.extend({ consent: z.preprocess(ticked, z.boolean()) });

/** A stored file as its viewer receives it: `url` is a short-lived signed URL. */
export const ZProfileFile = z.object({
  filename: z.string(),
  url: z.string(),
  contentType: z.string(),
  isImage: z.boolean(),
});
export type TProfileFile = z.infer<typeof ZProfileFile>;

/** valid, expiring within EXPIRY_WARNING_MONTHS, or expired. */
export const ZExpiryStatus = z.enum(['valid', 'expiring', 'expired']);
export type TExpiryStatus = z.infer<typeof ZExpiryStatus>;

/** A profile as its owner and administrators see it (the REST answers spell some keys as the spec does). */
export const ZProfile = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  gradeNumber: z.string(),
  phone: z.string(),
  dateOfBirth: z.string(),
  passportNumber: z.string(),
  passportExpiryDate: z.string(),
  passportExpiryStatus: ZExpiryStatus,
  indosNo: z.string(),
  cdcNumber: z.string(),
  cdcExpiryDate: z.string(),
  cdcExpiryStatus: ZExpiryStatus,
  /** True when the passport or the CDC is expired or expires within EXPIRY_WARNING_MONTHS. */
  documentsExpiring: z.boolean(),
  idType: z.enum(ID_TYPE_CODES),
  idTypeLabel: z.string(),
  streetAddress: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  zipCode: z.string(),
  consentAcceptedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  profilePicture: ZProfileFile,
  idDocument: ZProfileFile,
  signature: ZProfileFile,
  /** The identity check: its state, the version a check must name, when it was checked; the reason when returned. */
  identity: z.object({
    state: z.enum(IDENTITY_STATES),
    version: z.number().int(),
    checkedAt: z.string().nullable(),
    returnReason: z.string().nullable(),
    /** Staff only: who checked it, and how many other accounts share its INDOS or passport number. */
    checkedByName: z.string().nullable().optional(),
    duplicates: z.object({ indosNo: z.number().int(), passportNumber: z.number().int() }).optional(),
  }),
  /** The account holder; `email` only for administrators. */
  creator: z.object({ firstName: z.string(), lastName: z.string(), email: z.string().optional() }),
});
export type TProfile = z.infer<typeof ZProfile>;

export const PROFILE_LIST_DEFAULT_PAGE_SIZE = 20;
export const PROFILE_LIST_MAX_PAGE_SIZE = 100;

/**
 * The administrators' profile list: `search` matches a name containing it (from three letters;
 * shorter terms match the name's start) or the start of the e-mail, the INDOS, passport or CDC
 * number, ignoring case.
 */
export const ZProfileListQuery = requestObject({
  search: z.string().trim().max(PROFILE_SEARCH_MAX_LENGTH, P.search).optional(),
  ...pageFields({ defaultSize: PROFILE_LIST_DEFAULT_PAGE_SIZE, maxSize: PROFILE_LIST_MAX_PAGE_SIZE }),
});
export type TProfileListQuery = z.input<typeof ZProfileListQuery>;

export const ZProfilePage = pageOf(ZProfile);
export type TProfilePage = z.infer<typeof ZProfilePage>;

export const ZProfileByUserRequest = requestObject({ userId: ZId });

export const ZProfileSaved = z.object({ message: z.string(), data: ZProfile });
export type TProfileSaved = z.infer<typeof ZProfileSaved>;

import { z } from 'zod';
import { addDays } from '../calendar.ts';
import { CERTIFICATE_REVOKE_REASON_MAX_LENGTH } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { plainText, requestObject, ZId } from './common.ts';
import { pageFields, pageOf } from './paging.ts';

const C = MESSAGES.certificate;

/** MTA/{year}/{serial of six digits or more}; typed numbers are read without regard to case or spaces around. */
export const CERTIFICATE_NUMBER_PATTERN = /^MTA\/\d{4}\/\d{6,}$/;

export const ZCertificateNumber = z
  .string({ error: C.numberRequired })
  .trim()
  .min(1, C.numberRequired)
  .transform((number) => number.toUpperCase())
  .pipe(z.string().regex(CERTIFICATE_NUMBER_PATTERN, C.numberFormat));

/** Whether the PDF exists yet: a pass issues the certificate at once, the worker renders its PDF. */
export const ZCertificateFileStatus = z.enum(['pending', 'ready', 'failed']);

/**
 * Where a certificate stands, decided by the server alone (`modules/certificates/certificate-state.ts`):
 * valid; expiring (it expires within the reminder window); expired (its last valid day has
 * passed); revoked by an administrator; superseded by the certificate of its refresher course.
 */
export const CERTIFICATE_STATES = ['valid', 'expiring', 'expired', 'revoked', 'superseded'] as const;
export const ZCertificateState = z.enum(CERTIFICATE_STATES);
export type TCertificateState = z.infer<typeof ZCertificateState>;

/** Another certificate named beside this one (the one that superseded it, or the one it renews). */
const ZCertificateLink = z.object({ number: z.string(), courseTitle: z.string() });

/**
 * A learner's own certificate (My certificates, Certificate Report, the test page after a pass).
 * `pdfUrl` is the unguessable /certificates/{filename} address once the PDF is ready, else null.
 */
export const ZLearnerCertificate = z.object({
  id: z.string(),
  number: z.string(),
  /** 1 when issued; a re-issue (after a name correction) adds one. */
  version: z.number().int(),
  course: z.object({ id: z.string(), title: z.string(), code: z.string().nullable() }),
  issuedAt: z.string(),
  /** The last day it is valid (YYYY-MM-DD); null: it does not expire. */
  validUntil: z.string().nullable(),
  state: ZCertificateState,
  status: ZCertificateFileStatus,
  revoked: z.boolean(),
  revokeReason: z.string().nullable(),
  supersededBy: ZCertificateLink.nullable(),
  renews: ZCertificateLink.nullable(),
  /** The course that renews it, and whether the learner has asked to enrol in it. */
  refresher: z.object({ courseId: z.string(), title: z.string(), enrolled: z.boolean() }).nullable(),
  pdfUrl: z.string().nullable(),
  /** The secret of the holder's own verification link, for them to share; never shown to anyone else. */
  verificationCode: z.string(),
});
export type TLearnerCertificate = z.infer<typeof ZLearnerCertificate>;

export const ZCertificateCourseRequest = requestObject({ courseId: ZId });

/**
 * The secret a certificate's QR code and printed link carry beside its number: URL-safe letters,
 * digits, '-' and '_' (base64url for new certificates, hex for those issued before it existed).
 */
export const ZVerificationCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,128}$/, C.codeFormat);

/** /verify/{number} and /verify/{number}?code={code}: public. */
export const ZVerifyRequest = requestObject({ number: ZCertificateNumber, code: ZVerificationCode.optional() });

/** A calendar date as YYYY-MM-DD, as a date field gives it. */
const ZBirthDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, C.birthDateFormat);

/**
 * The number with something only those who know the holder know: the date of birth or the INDOS
 * number on the holder's profile (either, or both). Sent in a POST body, so neither lands in an
 * address or a log line.
 */
export const ZVerifyByHolderRequest = requestObject({
  number: ZCertificateNumber,
  dateOfBirth: ZBirthDate.optional(),
  indosNo: z.string().trim().max(40, C.indosFormat).optional(),
}).refine((input) => Boolean(input.dateOfBirth || input.indosNo), { message: C.holderDetailRequired });
export type TVerifyByHolderRequest = z.infer<typeof ZVerifyByHolderRequest>;

/**
 * What a verification says. With the code, or the number and the holder's date of birth or INDOS
 * number: the holder, the course, the date of issue and the state. With the number alone (or a
 * code or holder detail that does not match): only that the certificate exists, its state and the
 * holder's name masked (A. M***), so walking the numbers lists no one.
 */
export const ZCertificateVerification = z.discriminatedUnion('detail', [
  z.object({
    detail: z.literal('full'),
    number: z.string(),
    version: z.number().int(),
    state: ZCertificateState,
    holderName: z.string(),
    courseTitle: z.string(),
    courseCode: z.string().nullable(),
    approvalNumber: z.string().nullable(),
    issuedAt: z.string(),
    validUntil: z.string().nullable(),
    supersededBy: ZCertificateLink.nullable(),
    renews: ZCertificateLink.nullable(),
  }),
  z.object({
    detail: z.literal('masked'),
    number: z.string(),
    state: ZCertificateState,
    maskedName: z.string(),
    issuedAt: z.string(),
    validUntil: z.string().nullable(),
  }),
  /** The code (or PDF) of an earlier version: a re-issue replaced it with version `currentVersion`. */
  z.object({
    detail: z.literal('superseded-version'),
    number: z.string(),
    version: z.number().int(),
    currentVersion: z.number().int(),
  }),
]);
export type TCertificateVerification = z.infer<typeof ZCertificateVerification>;

/** An administrator revokes a certificate; the reason is kept for the record and shown to the holder, never publicly. */
export const ZRevokeRequest = requestObject({
  certificateId: ZId,
  reason: plainText('Reason', CERTIFICATE_REVOKE_REASON_MAX_LENGTH).optional(),
});

/** A certificate as administrators see it beside a result. */
export const ZAdminCertificate = z.object({
  id: z.string(),
  number: z.string(),
  status: ZCertificateFileStatus,
  revokedAt: z.string().nullable(),
  pdfUrl: z.string().nullable(),
});
export type TAdminCertificate = z.infer<typeof ZAdminCertificate>;

/** Where certificate PDFs are served, from the site root: /certificates/{filename}. */
export const CERTIFICATE_FILES_PATH = '/certificates';

/** The address of a ready certificate's PDF (the name is unguessable; holding it is the permission). */
export function certificatePdfUrl(filename: string): string {
  return `${CERTIFICATE_FILES_PATH}/${encodeURIComponent(filename)}`;
}

/**
 * The public verification page of a number, in path form: /verify/MTA/2026/000123. The number's
 * slashes stay path separators (no %2F, which some proxies refuse or decode), so the address
 * survives copying, pasting and the QR code; the client route reads everything after /verify/.
 * With the certificate's code (the QR code's and the printed link's form), the page shows the
 * holder's details; without, only a masked name.
 */
export function certificateVerifyPath(number: string, code?: string): string {
  const path = `/verify/${number.split('/').map(encodeURIComponent).join('/')}`;
  return code ? `${path}?code=${encodeURIComponent(code)}` : path;
}

/** The file name in a certificate's PDF address (the spec's `pdfPath.filename`). */
export function certificateFileName(pdfUrl: string): string {
  return decodeURIComponent(pdfUrl.slice(CERTIFICATE_FILES_PATH.length + 1));
}

// ---------------------------------------------------------------------------------------------
// The certificate lifecycle: administrators' list, re-issue, reminders, the regulator's batch

export const ZCertificateIdRequest = requestObject({ certificateId: ZId });

export const ADMIN_CERTIFICATES_PAGE_SIZE = 20;
export const ADMIN_CERTIFICATES_MAX_PAGE_SIZE = 100;
export const EXPIRING_WITHIN_MAX_DAYS = 3650;

const C2 = MESSAGES.certificateAdmin;

/** The administrators' certificate search: learner's name, e-mail, INDOS or number; course; state; expiring within N days. */
const certificateListFilters = {
  search: z.string().trim().max(100, C2.searchTooLong).optional(),
  courseId: ZId.optional(),
  state: ZCertificateState.optional(),
  expiringWithinDays: z
    .number({ error: C2.expiringWithin })
    .int(C2.expiringWithin)
    .min(1, C2.expiringWithin)
    .max(EXPIRING_WITHIN_MAX_DAYS, C2.expiringWithin)
    .optional(),
};
export const ZAdminCertificateQuery = requestObject({
  ...certificateListFilters,
  ...pageFields({ defaultSize: ADMIN_CERTIFICATES_PAGE_SIZE, maxSize: ADMIN_CERTIFICATES_MAX_PAGE_SIZE }),
});
export type TAdminCertificateQuery = z.output<typeof ZAdminCertificateQuery>;
/** The same filters for the CSV of the list (every match, no paging). */
export const ZAdminCertificateExportQuery = requestObject(certificateListFilters);
export type TAdminCertificateExportQuery = z.output<typeof ZAdminCertificateExportQuery>;

export const ZAdminCertificateRow = z.object({
  id: z.string(),
  number: z.string(),
  version: z.number().int(),
  state: ZCertificateState,
  status: ZCertificateFileStatus,
  pdfUrl: z.string().nullable(),
  holder: z.object({ userId: z.string(), name: z.string(), email: z.string(), indosNo: z.string().nullable() }),
  course: z.object({ id: z.string(), title: z.string(), code: z.string().nullable() }),
  issuedAt: z.string(),
  validUntil: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokeReason: z.string().nullable(),
  supersededBy: ZCertificateLink.nullable(),
  /** The latest expiry reminder sent, if any. */
  lastReminder: z.object({ daysBefore: z.number().int(), at: z.string() }).nullable(),
});
export type TAdminCertificateRow = z.infer<typeof ZAdminCertificateRow>;
export const ZAdminCertificatePage = pageOf(ZAdminCertificateRow);
export type TAdminCertificatePage = z.infer<typeof ZAdminCertificatePage>;

/** One expiry reminder of a certificate, as its history lists it. */
export const ZCertificateReminder = z.object({
  daysBefore: z.number().int(),
  validUntil: z.string(),
  queuedAt: z.string(),
  /** When the mail left; null while it waits in the outbox. */
  sentAt: z.string().nullable(),
  to: z.string().nullable(),
  /** 'schedule', or the administrator who ran the reminders now. */
  runBy: z.string(),
});
export type TCertificateReminder = z.infer<typeof ZCertificateReminder>;

/** What one run of the reminders did. */
export const ZReminderRunResult = z.object({
  /** Certificates in a reminder window that were looked at. */
  examined: z.number().int(),
  /** Reminders queued by this run (each certificate's stage is mailed once, ever). */
  queued: z.number().int(),
  /** The reminder stages in force, in days before expiry (a setting). */
  daysBefore: z.array(z.number().int()),
});
export type TReminderRunResult = z.infer<typeof ZReminderRunResult>;

/** The learner's choice: e-mail before a certificate expires, or not. */
export const ZReminderPreference = requestObject({ remindersOn: z.boolean() });
export type TReminderPreference = z.output<typeof ZReminderPreference>;

/** A calendar day as YYYY-MM-DD that exists (no 31 February, no month 13). */
const ZBatchDay = z
  .string({ error: C2.dateFormat })
  .regex(/^\d{4}-\d{2}-\d{2}$/, C2.dateFormat)
  .refine((day) => addDays(day, 0) === day, C2.dateFormat);

/** A batch for the regulator: a course and the days (inclusive) of the certificates' issue. */
export const ZRegulatorBatchQuery = requestObject({ courseId: ZId, from: ZBatchDay, to: ZBatchDay }).refine((query) => query.from <= query.to, {
  message: C2.rangeOrder,
  path: ['to'],
});
export type TRegulatorBatchQuery = z.output<typeof ZRegulatorBatchQuery>;

/** The fields a regulator's batch row needs from the holder's profile. */
export const REGULATOR_HOLDER_FIELDS = ['indosNo', 'nameAsInPassport', 'dateOfBirth', 'passportNumber', 'cdcNumber'] as const;
export type TRegulatorHolderField = (typeof REGULATOR_HOLDER_FIELDS)[number];

/** One completion of the batch, as the DG Shipping batch upload lists it; empty strings where a field is missing. */
export const ZRegulatorRow = z.object({
  certificateId: z.string(),
  userId: z.string(),
  indosNo: z.string(),
  nameAsInPassport: z.string(),
  dateOfBirth: z.string(),
  passportNumber: z.string(),
  cdcNumber: z.string(),
  courseCode: z.string(),
  approvalNumber: z.string(),
  batchStart: z.string(),
  batchEnd: z.string(),
  certificateNumber: z.string(),
  issueDate: z.string(),
  validUntil: z.string(),
  /**
   * Whether a member of staff verified the holder's identity values the certificate printed; when
   * not, the holder's fields are empty (and listed as missing) and the files mark them "not verified".
   */
  verified: z.boolean(),
  /** Who verified them and on which day (YYYY-MM-DD); empty when not verified. */
  verifiedBy: z.string(),
  verifiedOn: z.string(),
  /** The holder's fields this row lacks (each must be put right on the profile, verified, then the certificate re-issued). */
  missing: z.array(z.enum(REGULATOR_HOLDER_FIELDS)),
});
export type TRegulatorRow = z.infer<typeof ZRegulatorRow>;

export const ZRegulatorBatch = z.object({
  course: z.object({ id: z.string(), title: z.string(), code: z.string().nullable(), approvalNumber: z.string().nullable() }),
  from: z.string(),
  to: z.string(),
  rows: z.array(ZRegulatorRow),
  /** What the course itself lacks for the batch (its code, its approval number). */
  courseMissing: z.array(z.enum(['courseCode', 'approvalNumber'])),
});
export type TRegulatorBatch = z.infer<typeof ZRegulatorBatch>;

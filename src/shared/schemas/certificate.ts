import { z } from 'zod';
import { CERTIFICATE_REVOKE_REASON_MAX_LENGTH } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { plainText, requestObject, ZId } from './common.ts';

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
 * A learner's own certificate (Certificate Report, the test page after a pass). `pdfUrl` is the
 * unguessable /certificates/{filename} address once the PDF is ready, else null.
 */
export const ZLearnerCertificate = z.object({
  id: z.string(),
  number: z.string(),
  course: z.object({ id: z.string(), title: z.string() }),
  issuedAt: z.string(),
  status: ZCertificateFileStatus,
  revoked: z.boolean(),
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
    state: z.enum(['valid', 'revoked']),
    holderName: z.string(),
    courseTitle: z.string(),
    issuedAt: z.string(),
  }),
  z.object({
    detail: z.literal('masked'),
    number: z.string(),
    state: z.enum(['valid', 'revoked']),
    maskedName: z.string(),
  }),
]);
export type TCertificateVerification = z.infer<typeof ZCertificateVerification>;

/** An administrator revokes a certificate; the reason is kept for the record, never shown publicly. */
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

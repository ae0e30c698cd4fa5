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
});
export type TLearnerCertificate = z.infer<typeof ZLearnerCertificate>;

export const ZCertificateCourseRequest = requestObject({ courseId: ZId });

/** /verify/{number}: public. */
export const ZVerifyRequest = requestObject({ number: ZCertificateNumber });

/** What anyone holding the number may learn: valid or revoked, the holder, the course, the date. Nothing more. */
export const ZCertificateVerification = z.object({
  number: z.string(),
  state: z.enum(['valid', 'revoked']),
  holderName: z.string(),
  courseTitle: z.string(),
  issuedAt: z.string(),
});
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
 */
export function certificateVerifyPath(number: string): string {
  return `/verify/${number.split('/').map(encodeURIComponent).join('/')}`;
}

/** The file name in a certificate's PDF address (the spec's `pdfPath.filename`). */
export function certificateFileName(pdfUrl: string): string {
  return decodeURIComponent(pdfUrl.slice(CERTIFICATE_FILES_PATH.length + 1));
}

import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { ZAuditEntry } from './audit.ts';
import { requestObject, ZId } from './common.ts';

const E = MESSAGES.evidence;

export const ZEvidenceRequest = requestObject({ certificateId: ZId });

const ZDay = z.string({ error: E.dateFormat }).regex(/^\d{4}-\d{2}-\d{2}$/, E.dateFormat);

/** A course and the days (inclusive) whose certificates the evidence export covers. */
export const ZEvidenceExportQuery = requestObject({ courseId: ZId, from: ZDay, to: ZDay }).refine((query) => query.from <= query.to, {
  message: E.rangeOrder,
  path: ['to'],
});
export type TEvidenceExportQuery = z.output<typeof ZEvidenceExportQuery>;

export const ZWatchRefusal = z.object({ at: z.string(), reason: z.string(), claimedFrom: z.number(), claimedTo: z.number(), creditedSeconds: z.number() });

export const ZPartEvidence = z.object({
  serial: z.number(),
  title: z.string(),
  durationSeconds: z.number().nullable(),
  firstWatchedAt: z.string().nullable(),
  lastWatchedAt: z.string().nullable(),
  /** Seconds of the part credited: each second once. */
  watchedSeconds: z.number(),
  /** Seconds the server's clock saw the learner playing it. */
  timedSeconds: z.number(),
  completedAt: z.string().nullable(),
  refusals: z.array(ZWatchRefusal),
});

export const ZAttemptEvidence = z.object({
  number: z.number(),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
  score: z.number().nullable(),
  totalQuestions: z.number().nullable(),
  percentage: z.number().nullable(),
  passed: z.boolean().nullable(),
  questions: z.array(
    z.object({ questionText: z.string(), options: z.array(z.string()), selectedAnswer: z.string().nullable(), correctAnswer: z.string(), correct: z.boolean() }),
  ),
});

/** What an auditor needs to trust one certificate: the watching, every attempt, every refusal. */
export const ZCertificateEvidence = z.object({
  certificate: z.object({
    id: z.string(),
    number: z.string(),
    issuedAt: z.string(),
    revokedAt: z.string().nullable(),
    revokeReason: z.string().nullable(),
  }),
  holder: z.object({ name: z.string(), email: z.string() }),
  course: z.object({ id: z.string(), title: z.string() }),
  parts: z.array(ZPartEvidence),
  attempts: z.array(ZAttemptEvidence),
  /** What staff did to the certificate (revoked, re-issued), from the audit trail, oldest first. */
  audit: z.array(ZAuditEntry),
});
export type TCertificateEvidence = z.infer<typeof ZCertificateEvidence>;

/** A certificate's evidence without its audit entries (each certificate of the course export). */
export type TEvidenceOfCertificate = Omit<TCertificateEvidence, 'audit'>;

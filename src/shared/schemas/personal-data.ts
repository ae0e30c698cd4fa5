import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './auth.ts';
import { MESSAGES } from '../messages.ts';
import { requestObject } from './common.ts';

const P = MESSAGES.personalData;

/** The learner's confirmation of an erasure: their password, as typed. */
export const ZErasureRequest = requestObject({
  password: z
    .string({ error: P.passwordRequired })
    .min(1, P.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, P.passwordWrong),
});
export type TErasureRequest = z.infer<typeof ZErasureRequest>;

/** What an erasure keeps, as the learner is told before and after. */
export const ZRetentionTerms = z.object({
  /** Years the academy keeps issued certificates and their records after an erasure. */
  retentionYears: z.number().int(),
  /** The caller's issued certificates: what would be kept. */
  certificates: z.array(z.object({ number: z.string(), courseTitle: z.string() })),
});
export type TRetentionTerms = z.infer<typeof ZRetentionTerms>;

/** The erasure's answer: what was kept, until when, and what was removed. */
export const ZErasureResult = z.object({
  message: z.string(),
  erasedAt: z.string(),
  /** The last day the kept records must stay (YYYY-MM-DD); null when nothing was kept. */
  retainUntil: z.string().nullable(),
  kept: z.object({
    certificates: z.array(z.object({ number: z.string(), courseTitle: z.string() })),
    testAttempts: z.number().int(),
    watchedParts: z.number().int(),
    enrolments: z.number().int(),
  }),
  removed: z.object({
    profile: z.boolean(),
    documents: z.number().int(),
    enrolments: z.number().int(),
    testAttempts: z.number().int(),
    watchedParts: z.number().int(),
    offlineDownloads: z.number().int(),
    mails: z.number().int(),
  }),
});
export type TErasureResult = z.infer<typeof ZErasureResult>;

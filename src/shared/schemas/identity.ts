import { z } from 'zod';
import { IDENTITY_RETURN_REASON_MAX_LENGTH, IDENTITY_STATES } from '../identity.ts';
import { PROFILE_SEARCH_MAX_LENGTH } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { requestObject, ZId } from './common.ts';
import { pageFields, pageOf } from './paging.ts';
import { ZProfile } from './profile.ts';

const I = MESSAGES.identity;

export const ZIdentityState = z.enum(IDENTITY_STATES);

/** The identity checks' queue: awaiting check first (oldest change first), then the rest; optionally one state. */
export const ZIdentityQueueQuery = requestObject({
  state: ZIdentityState.optional(),
  search: z.string().trim().max(PROFILE_SEARCH_MAX_LENGTH, I.search).optional(),
  ...pageFields({ defaultSize: 20, maxSize: 100 }),
});
export type TIdentityQueueQuery = z.input<typeof ZIdentityQueueQuery>;

/** One line of the queue. */
export const ZIdentityQueueItem = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  indosNo: z.string(),
  passportNumber: z.string(),
  state: ZIdentityState,
  version: z.number().int(),
  changedAt: z.string(),
  checkedAt: z.string().nullable(),
  duplicates: z.object({ indosNo: z.number().int(), passportNumber: z.number().int() }),
});
export const ZIdentityQueuePage = pageOf(ZIdentityQueueItem);
export type TIdentityQueuePage = z.infer<typeof ZIdentityQueuePage>;

/** One row of a profile's identity history. */
export const ZIdentityHistoryEntry = z.object({
  id: z.string(),
  version: z.number().int(),
  state: ZIdentityState,
  name: z.string(),
  dateOfBirth: z.string(),
  indosNo: z.string(),
  passportNumber: z.string(),
  passportExpiryDate: z.string(),
  cdcNumber: z.string(),
  checkedByName: z.string().nullable(),
  reason: z.string().nullable(),
  at: z.string(),
});

/** Another account with the same INDOS or passport number (staff only). */
export const ZIdentityDuplicate = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  fields: z.array(z.enum(['indosNo', 'passportNumber'])),
  state: ZIdentityState,
});

/** The check screen: the profile (with its signed file links), the other accounts sharing a number, the history. */
export const ZIdentityCheckView = z.object({
  profile: ZProfile,
  duplicates: z.array(ZIdentityDuplicate),
  history: z.array(ZIdentityHistoryEntry),
});
export type TIdentityCheckView = z.infer<typeof ZIdentityCheckView>;

export const ZIdentityCheckRequest = requestObject({ userId: ZId });

/** Verify the version the member of staff saw; a profile sharing a number with another account needs the duplicate acknowledged. */
export const ZIdentityVerifyRequest = requestObject({
  userId: ZId,
  version: z.number().int().min(1),
  duplicatesAcknowledged: z.boolean().optional(),
});

export const ZIdentityReturnRequest = requestObject({
  userId: ZId,
  version: z.number().int().min(1),
  reason: z
    .string({ error: I.reasonRequired })
    .trim()
    .min(1, I.reasonRequired)
    .max(IDENTITY_RETURN_REASON_MAX_LENGTH, I.reasonTooLong(IDENTITY_RETURN_REASON_MAX_LENGTH)),
});

export const ZIdentityDecision = z.object({ message: z.string(), view: ZIdentityCheckView });
export type TIdentityDecision = z.infer<typeof ZIdentityDecision>;

import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { requestObject, ZId } from './common.ts';

const A = MESSAGES.audit;

export { auditActionLabel } from '../audit-actions.ts';

const ZDay = z.string({ error: A.dateFormat }).regex(/^\d{4}-\d{2}-\d{2}$/, A.dateFormat);
const ZAction = z.string().trim().min(1).max(80).regex(/^[a-z0-9.-]+$/, 'An action is a dotted name such as certificate.revoke.');

/** The search's filters: who acted, what, about which learner, on which days (inclusive, UTC). */
const filterShape = {
  actorId: ZId.optional(),
  action: ZAction.optional(),
  learnerId: ZId.optional(),
  from: ZDay.optional(),
  to: ZDay.optional(),
};
const rangeInOrder = (query: { from?: string | undefined; to?: string | undefined }) => !query.from || !query.to || query.from <= query.to;

export const ZAuditFilters = requestObject(filterShape).refine(rangeInOrder, { message: A.rangeOrder, path: ['to'] });
export type TAuditFilters = z.output<typeof ZAuditFilters>;

/** A page of the search, newest first; `cursor` is the previous page's `nextCursor`. */
export const ZAuditSearch = requestObject({
  ...filterShape,
  cursor: z.string().max(80).optional(),
  limit: z.number().int().min(1).max(100).optional(),
}).refine(rangeInOrder, { message: A.rangeOrder, path: ['to'] });
export type TAuditSearch = z.output<typeof ZAuditSearch>;

export const ZAuditEntry = z.object({
  seq: z.number(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  actorRole: z.string().nullable(),
  address: z.string().nullable(),
  action: z.string(),
  subjectType: z.string(),
  subjectId: z.string().nullable(),
  learnerId: z.string().nullable(),
  before: z.json().nullable(),
  after: z.json().nullable(),
});
export type TAuditEntry = z.output<typeof ZAuditEntry>;

export const ZAuditPage = z.object({ items: z.array(ZAuditEntry), nextCursor: z.string().nullable() });
export type TAuditPage = z.output<typeof ZAuditPage>;

/** Someone who appears in the trail as its actor (the person filter's choices). */
export const ZAuditPerson = z.object({ id: z.string(), name: z.string().nullable(), role: z.string().nullable() });
export type TAuditPerson = z.output<typeof ZAuditPerson>;

export const ZAuditChainCheck = z.object({
  entries: z.number(),
  brokenAt: z.object({ seq: z.number(), reason: z.enum(['content', 'link']) }).nullable(),
  checkedAt: z.string(),
});

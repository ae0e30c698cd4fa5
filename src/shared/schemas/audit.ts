import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { requestObject, ZId } from './common.ts';

const A = MESSAGES.audit;

/** The audit trail's actions, with the words the screen shows for each. */
export const AUDIT_ACTIONS = {
  'account.approve': 'Account approved',
  'enrolment.accept': 'Enrolment accepted',
  'enrolment.reject': 'Enrolment rejected',
  'course.create': 'Course created',
  'course.update': 'Course changed',
  'course.activate': 'Course activated',
  'course.deactivate': 'Course deactivated',
  'course.certificate-settings': 'Certificate settings changed',
  'training.upload': 'Training videos uploaded',
  'training.delete': 'Training video deleted',
  'training.reorder': 'Training videos reordered',
  'training.retry': 'Training video retried',
  'test.create': 'Test created',
  'test.publish': 'Test published',
  'test.unpublish': 'Test unpublished',
  'test.policy': 'Attempts policy changed',
  'test.grant-attempts': 'Attempts granted',
  'certificate.revoke': 'Certificate revoked',
  'certificate.reissue': 'Certificate re-issued',
  'reminders.run': 'Reminders run now',
  'export.regulator-batch': 'Regulator’s batch downloaded',
  'export.certificate-list': 'Certificate list downloaded',
  'export.evidence': 'Evidence downloaded',
  'export.results': 'Test results downloaded',
  'export.audit': 'Audit trail downloaded',
  'settings.change': 'Academy settings changed',
  'staff.invite': 'Staff invited',
  'staff.invite-revoke': 'Staff invitation revoked',
  'staff.join': 'Staff member joined',
  'staff.role': 'Staff role changed',
  'staff.deactivate': 'Staff member deactivated',
  'staff.reactivate': 'Staff member reactivated',
  'data.export': 'Learner’s data downloaded',
  'data.erasure': 'Learner’s data erased',
  'data.purge': 'Kept records removed after retention',
} as const satisfies Record<string, string>;

/** The words for an action; an action this list does not know yet shows as written. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

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

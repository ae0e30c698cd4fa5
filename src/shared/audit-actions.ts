/*
 * The audit trail's actions and their words, without zod: the screens that only show entries
 * (the audit trail, a certificate's evidence) import them from here (decision 035).
 */

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
  'identity.submit': 'Identity sent for a check',
  'identity.change': 'Identity changed by the learner',
  'identity.verify': 'Identity verified',
  'identity.return': 'Identity returned',
  'staff.invite': 'Staff member invited',
  'staff.invite-revoke': 'Invitation revoked',
  'staff.join': 'Staff member joined',
  'staff.role': 'Staff role changed',
  'staff.deactivate': 'Staff member deactivated',
  'staff.reactivate': 'Staff member reactivated',
  'auth.sign-in': 'Signed in',
  'auth.second-factor-failed': 'Second factor refused',
  'auth.factor-enrolled': 'Second factor added',
  'auth.factor-removed': 'Second factor removed',
  'auth.recovery-codes-regenerated': 'Recovery codes replaced',
  'auth.factors-reset': 'Second factors reset by an owner',
  'data.export': 'Learner downloaded their data',
  'data.erasure': 'Learner’s data erased',
  'data.purge': 'Kept records purged after retention',
} as const satisfies Record<string, string>;

/** The words for an action; an action this list does not know yet shows as written. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

/**
 * The academy's staff roles and what each may do (decision 067). Every staff procedure and REST
 * route names one permission; the server refuses a member whose role lacks it, and the admin area
 * shows each member only the screens their role may use. The spec's single administrator is the
 * first owner: a staff account is a user whose role is 'admin' (the access token's claim, as the
 * spec's clients read it) with one of these staff roles.
 */
export const STAFF_ROLES = ['owner', 'registrar', 'instructor', 'auditor'] as const;
export type TStaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<TStaffRole, { label: string; description: string }> = {
  owner: { label: 'Owner', description: 'Everything, including staff, roles and the academy’s settings.' },
  registrar: { label: 'Registrar', description: 'Accounts, identity checks, enrolments and certificates.' },
  instructor: { label: 'Instructor', description: 'Courses, training videos, tests and their results.' },
  auditor: { label: 'Auditor', description: 'Reads results, evidence, certificates, exports and the audit trail; changes nothing.' },
};

const ALL: readonly TStaffRole[] = STAFF_ROLES;

/** Each permission and the roles that hold it. */
export const STAFF_PERMISSIONS = {
  /** The admin overview and the course list every staff screen filters by. */
  'overview.read': ALL,
  /** Invite staff, change roles, deactivate, reset a member's second factor. */
  'staff.manage': ['owner'],
  /** The academy's settings (second factor, retention). */
  'settings.manage': ['owner'],
  /** Learner accounts and profiles: read. */
  'accounts.read': ['owner', 'registrar', 'auditor'],
  /** Approve accounts. */
  'accounts.approve': ['owner', 'registrar'],
  /** Check a profile's identity against its documents. */
  'identity.check': ['owner', 'registrar'],
  /** Enrolment requests: read. */
  'enrolments.read': ['owner', 'registrar', 'auditor'],
  /** Accept or reject an enrolment request. */
  'enrolments.decide': ['owner', 'registrar'],
  /** Courses, training videos and tests: read. */
  'courses.read': ALL,
  /** Courses, training videos, tests, publishing and the attempts policy: change. */
  'courses.edit': ['owner', 'instructor'],
  /** Test results and attempts. */
  'results.read': ['owner', 'instructor', 'auditor'],
  /** Certificates, their evidence and the regulator's export: read and download. */
  'certificates.read': ['owner', 'registrar', 'auditor'],
  /** Revoke, re-issue, run the reminders. */
  'certificates.manage': ['owner', 'registrar'],
  /** The audit trail: search, download, check the chain. */
  'audit.read': ['owner', 'auditor'],
} as const satisfies Record<string, readonly TStaffRole[]>;
export type TStaffPermission = keyof typeof STAFF_PERMISSIONS;

/** Whether a member of staff with this role may do this; a learner (no staff role) never may. */
export function staffMay(staffRole: TStaffRole | null | undefined, permission: TStaffPermission): boolean {
  return staffRole != null && (STAFF_PERMISSIONS[permission] as readonly TStaffRole[]).includes(staffRole);
}

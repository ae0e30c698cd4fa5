import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { STAFF_ROLES } from '../staff-roles.ts';
import { ADMIN_PASSWORD_MIN_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './auth.ts';
import { emailAddress, printedName, requestObject, ZId } from './common.ts';

const V = MESSAGES.validation;

/** The link's token as the invitation mail carries it. */
const INVITATION_TOKEN = z
  .string({ error: MESSAGES.staff.invitationInvalid })
  .regex(/^[A-Za-z0-9_-]{20,200}$/, MESSAGES.staff.invitationInvalid);

const staffRole = z.enum(STAFF_ROLES, { error: 'Choose one of the roles.' });

export const ZStaffInviteRequest = requestObject({
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalid }),
  staffRole,
});
export type TStaffInviteRequest = z.output<typeof ZStaffInviteRequest>;

export const ZInvitationIdRequest = requestObject({ invitationId: ZId });
export const ZStaffMemberRequest = requestObject({ userId: ZId });
export const ZStaffRoleRequest = requestObject({ userId: ZId, staffRole });

export const ZInvitationTokenRequest = requestObject({ token: INVITATION_TOKEN });

/** The invitee's form: their name and a password of an administrator's length. */
export const ZStaffJoinRequest = requestObject({
  token: INVITATION_TOKEN,
  firstName: printedName('First name', NAME_MAX_LENGTH).refine((value) => value.length > 0, 'First name is required'),
  lastName: printedName('Last name', NAME_MAX_LENGTH).refine((value) => value.length > 0, 'Last name is required'),
  password: z
    .string({ error: V.passwordRequired })
    .min(1, V.passwordRequired)
    .min(ADMIN_PASSWORD_MIN_LENGTH, `Password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, V.passwordTooLong),
});
export type TStaffJoinRequest = z.output<typeof ZStaffJoinRequest>;

export const ZStaffMember = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  staffRole: staffRole,
  active: z.boolean(),
  deactivatedAt: z.string().nullable(),
  joinedAt: z.string(),
});
export type TStaffMember = z.infer<typeof ZStaffMember>;

export const ZStaffInvitation = z.object({
  id: z.string(),
  email: z.string(),
  staffRole: staffRole,
  sentAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type TStaffInvitation = z.infer<typeof ZStaffInvitation>;

export const ZStaffList = z.object({ members: z.array(ZStaffMember), invitations: z.array(ZStaffInvitation) });
export type TStaffList = z.infer<typeof ZStaffList>;

/** What the invitation page shows before the form: the address and role, or that the link will not do. */
export const ZInvitationStatus = z.discriminatedUnion('valid', [
  z.object({ valid: z.literal(true), email: z.string(), staffRole }),
  z.object({ valid: z.literal(false) }),
]);
export type TInvitationStatus = z.infer<typeof ZInvitationStatus>;

export const RETENTION_YEARS_MIN = 1;
export const RETENTION_YEARS_MAX = 100;

export const ZAcademySettings = z.object({ staffSecondFactorRequired: z.boolean(), retentionYears: z.number().int() });

export const ZAcademySettingsChange = requestObject({
  staffSecondFactorRequired: z.boolean().optional(),
  retentionYears: z
    .number({ error: MESSAGES.staff.retentionRange })
    .int(MESSAGES.staff.retentionRange)
    .min(RETENTION_YEARS_MIN, MESSAGES.staff.retentionRange)
    .max(RETENTION_YEARS_MAX, MESSAGES.staff.retentionRange)
    .optional(),
});

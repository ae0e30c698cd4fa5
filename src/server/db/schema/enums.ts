import { pgEnum } from 'drizzle-orm/pg-core';
import { ENROLMENT_STATUSES, ID_TYPES, ROLES } from '../../../shared/constants.ts';
import { IDENTITY_STATES } from '../../../shared/identity.ts';
import { STAFF_ROLES } from '../../../shared/staff-roles.ts';

export const roleEnum = pgEnum('role', ROLES);
export const staffRoleEnum = pgEnum('staff_role', STAFF_ROLES);
export const enrolmentStatusEnum = pgEnum('enrolment_status', ENROLMENT_STATUSES);
export const idTypeEnum = pgEnum(
  'id_type',
  ID_TYPES.map((t) => t.code) as [(typeof ID_TYPES)[number]['code'], ...(typeof ID_TYPES)[number]['code'][]],
);
export const otpPurposeEnum = pgEnum('otp_purpose', ['verify_email', 'reset_password']);
export const videoStatusEnum = pgEnum('video_status', ['pending', 'processing', 'ready', 'failed']);
export const jobStatusEnum = pgEnum('job_status', ['pending', 'done', 'failed']);
export const certificateStatusEnum = pgEnum('certificate_status', ['pending', 'ready', 'failed']);
export const identityStateEnum = pgEnum('identity_state', IDENTITY_STATES);

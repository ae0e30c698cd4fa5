import { z } from 'zod';
import {
  MOBILE_NUMBER_LENGTH,
  OTP_LENGTH,
  LOGIN_PASSWORD_MIN_LENGTH,
  PASSWORD_MIN_LENGTH,
  REGISTRATION_PREFIXES,
  ROLES,
} from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { STAFF_ROLES } from '../staff-roles.ts';
import { emailAddress, presentText, printedName, requestObject } from './common.ts';

const V = MESSAGES.validation;

export const NAME_MAX_LENGTH = 50;
export const PASSWORD_MAX_LENGTH = 128;
export const ADMIN_PASSWORD_MIN_LENGTH = 12;
const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);
const MOBILE_PATTERN = new RegExp(`^\\d{${MOBILE_NUMBER_LENGTH}}$`);
const REFRESH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

/** A password as typed: never trimmed, bounded so hashing cost cannot be driven up. */
function password(options: { missing: string; min: number; short: string }) {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? options.missing : V.mustBeText('Password')) })
    .min(1, options.missing)
    .min(options.min, options.short)
    .max(PASSWORD_MAX_LENGTH, V.passwordTooLong);
}

const otp = z
  .string({ error: V.otp })
  .trim()
  .regex(OTP_PATTERN, V.otp);

// Registration is checked in the order of the spec (section 5): every field filled, then the
// mobile number, then the e-mail, then the two passwords equal, then the password's length.
// Each stage runs only when the one before it passed, so the first message is always the right one.
const registrationPresence = {
  title: presentText('Prefix', V.fillAllFields),
  firstName: presentText('First name', V.fillAllFields),
  lastName: presentText('Last name', V.fillAllFields),
  mobile: presentText('Mobile number', V.fillAllFields),
  email: presentText('Email', V.fillAllFields),
  password: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? V.fillAllFields : V.mustBeText('Password')) })
    .min(1, V.fillAllFields),
};

/** Names: plain text, no angle brackets, and only what a certificate prints (it prints them where there is no profile). */
const personName = (label: string) => printedName(label, NAME_MAX_LENGTH);

const registrationFormat = {
  title: z.enum(REGISTRATION_PREFIXES, { error: V.prefix }),
  firstName: personName('First name'),
  lastName: personName('Last name'),
  mobile: z.string().regex(MOBILE_PATTERN, V.mobile),
  email: emailAddress({ missing: V.fillAllFields, missingAt: V.emailAt, invalid: V.emailInvalid }),
  password: z.string(),
};

/** Only when every earlier check passed, so messages arrive one at a time in the spec's order. */
const afterEarlierChecks = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

function passwordLength<T extends z.ZodType<{ password: string }>>(schema: T, min: number, short: string) {
  return schema
    .refine((form) => form.password.length >= min, { message: short, path: ['password'], ...afterEarlierChecks })
    .refine((form) => form.password.length <= PASSWORD_MAX_LENGTH, {
      message: V.passwordTooLong,
      path: ['password'],
      ...afterEarlierChecks,
    });
}

/** auth.register, and POST /user/register once its names are translated. `title` is the prefix (Mr, Ms...). */
export const ZRegisterRequest = requestObject(registrationPresence).pipe(
  passwordLength(z.object(registrationFormat), PASSWORD_MIN_LENGTH, V.newPasswordShort),
);
export type TRegisterRequest = z.output<typeof ZRegisterRequest>;

/** The registration form: the request plus Confirm Password, in the same order of checks. */
export const ZRegisterForm = requestObject({
  ...registrationPresence,
  confirmPassword: z.string({ error: V.fillAllFields }).min(1, V.fillAllFields),
}).pipe(
  passwordLength(
    z.object({ ...registrationFormat, confirmPassword: z.string() }).refine(
      (form) => form.password === form.confirmPassword,
      { message: V.passwordsDiffer, path: ['confirmPassword'], ...afterEarlierChecks },
    ),
    PASSWORD_MIN_LENGTH,
    V.newPasswordShort,
  ),
);
export type TRegisterForm = z.input<typeof ZRegisterForm>;

export const ZLoginRequest = requestObject({
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalid }),
  password: password({ missing: V.passwordRequired, min: LOGIN_PASSWORD_MIN_LENGTH, short: V.passwordShort }),
});
export type TLoginRequest = z.output<typeof ZLoginRequest>;

export const ZEmailRequest = requestObject({
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalid }),
});
export type TEmailRequest = z.output<typeof ZEmailRequest>;

/** Forgot password: the spec's own wording for a malformed address. */
export const ZForgotPasswordRequest = requestObject({
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalidForgot }),
});
export type TForgotPasswordRequest = z.output<typeof ZForgotPasswordRequest>;

export const ZVerifyOtpRequest = requestObject({
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalid }),
  otp,
});
export type TVerifyOtpRequest = z.output<typeof ZVerifyOtpRequest>;

export const ZResetPasswordRequest = requestObject({
  email: emailAddress({ missing: V.emailRequired, invalid: V.emailInvalid }),
  otp,
  newPassword: password({ missing: V.passwordRequired, min: PASSWORD_MIN_LENGTH, short: V.newPasswordShort }),
});
export type TResetPasswordRequest = z.output<typeof ZResetPasswordRequest>;

/** The reset form: the request plus the confirmation, which never leaves the browser. */
export const ZResetPasswordForm = requestObject({
  ...ZResetPasswordRequest.shape,
  confirmPassword: z.string({ error: V.passwordRequired }),
}).refine((form) => form.newPassword === form.confirmPassword, {
  message: V.passwordsDiffer,
  path: ['confirmPassword'],
});

export const ZRefreshTokenRequest = requestObject({
  refreshToken: z
    .string({ error: MESSAGES.auth.sessionExpired })
    .regex(REFRESH_TOKEN_PATTERN, MESSAGES.auth.sessionExpired),
});

const SETUP_TOKEN = z.string({ error: MESSAGES.auth.adminSetupInvalid }).regex(REFRESH_TOKEN_PATTERN, MESSAGES.auth.adminSetupInvalid);

export const ZAdminSetupStatusRequest = requestObject({ token: SETUP_TOKEN });

/** The one-time administrator set-up: the registration fields plus the link's token. */
export const ZAdminSetupRequest = requestObject({ ...registrationPresence, token: SETUP_TOKEN }).pipe(
  passwordLength(
    z.object({ ...registrationFormat, token: z.string() }),
    ADMIN_PASSWORD_MIN_LENGTH,
    `Password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`,
  ),
);
export type TAdminSetupRequest = z.output<typeof ZAdminSetupRequest>;

// Answers.

/** The signed-in user as the client keeps it. Approval matters for enrolment (a later screen). */
export const ZAuthUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  /** What a member of staff may do; null for a learner (decision 067). */
  staffRole: z.enum(STAFF_ROLES).nullable(),
  verified: z.boolean(),
  approved: z.boolean(),
});
export type TAuthUser = z.infer<typeof ZAuthUser>;

export const ZTokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TTokenPair = z.infer<typeof ZTokenPair>;

/**
 * What the browser's login (auth.login, auth.adminLogin) answers. Its refresh token goes into an
 * HttpOnly cookie instead, out of reach of script on the page (decision 015); the REST login
 * answers it in the body for clients written to the spec.
 */
export const ZBrowserLoginResult = z.object({ accessToken: z.string(), user: ZAuthUser });
export type TBrowserLoginResult = z.infer<typeof ZBrowserLoginResult>;

/** What the browser's session renewal (POST /api/session/refresh) answers; the cookie is rotated. */
export type TBrowserRefreshResult = { accessToken: string };

/**
 * What the browser may send with its logout (POST /api/session/logout): the session it means to
 * end, from its access token. A logout made offline is sent later, perhaps twice (the page and the
 * service worker's Background Sync); naming the session keeps a late copy from ending a session
 * someone started in the browser since. Without it, the cookie's session ends.
 */
export const ZBrowserLogoutRequest = z.object({ sessionId: z.uuid().optional() }).strict();

export const ZRegisterResult = z.object({ message: z.string(), email: z.string() });
export type TRegisterResult = z.infer<typeof ZRegisterResult>;

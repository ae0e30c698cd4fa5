import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { requestObject } from './common.ts';
import { ZBrowserLoginResult } from './auth.ts';

const M = MESSAGES.secondFactor;

/**
 * How a sign-in may give its second factor: a code from an authenticator app, a passkey, a
 * recovery code, or 'enrol' (a member of staff who has none sets one up first).
 */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery', 'enrol'] as const;
export type TSecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The login's answer when the password was right but a second factor is needed: no session yet. */
export const ZSecondFactorChallenge = z.object({
  secondFactorRequired: z.literal(true),
  /** Signed, short-lived and bound to the user: what the next call gives back. */
  challengeToken: z.string(),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
});
export type TSecondFactorChallenge = z.infer<typeof ZSecondFactorChallenge>;

/** The browser's login answer: a session, or the second step. */
export const ZBrowserLoginAnswer = z.union([ZBrowserLoginResult, ZSecondFactorChallenge]);

const challengeToken = z.string({ error: M.challengeExpired }).min(1, M.challengeExpired).max(2000, M.challengeExpired);
/** Six digits; spaces a user typed between them are dropped. */
export const ZTotpCode = z
  .string({ error: M.codeRequired })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, M.codeFormat));
const recoveryCode = z.string({ error: M.codeRequired }).trim().min(1, M.codeRequired).max(64, M.codeWrong);
/** A WebAuthn response (PublicKeyCredential as JSON), checked by the WebAuthn library. */
const webAuthnResponse = z.record(z.string(), z.unknown());

export const ZChallengeRequest = requestObject({ challengeToken });
export type TChallengeRequest = z.output<typeof ZChallengeRequest>;

/** The second step of a sign-in: exactly one of a code, a recovery code or a passkey's assertion. */
export const ZSecondFactorRequest = requestObject({
  challengeToken,
  code: ZTotpCode.optional(),
  recoveryCode: recoveryCode.optional(),
  passkey: webAuthnResponse.optional(),
}).refine((input) => [input.code, input.recoveryCode, input.passkey].filter((given) => given !== undefined).length === 1, {
  message: M.oneMethod,
  path: ['code'],
});
export type TSecondFactorRequest = z.output<typeof ZSecondFactorRequest>;

/** The spec client's second step (REST): a code from the app, or a recovery code. */
export const ZRestSecondFactorRequest = requestObject({
  challengeToken,
  code: z.string({ error: M.codeRequired }).trim().min(1, M.codeRequired).max(64, M.codeWrong),
});

/** A new authenticator app: the secret (base32) and its otpauth:// URI, and the URI as a QR code (PNG data URL). */
export const ZTotpEnrolment = z.object({ secret: z.string(), uri: z.string(), qrCode: z.string() });
export type TTotpEnrolment = z.infer<typeof ZTotpEnrolment>;

export const ZConfirmTotpRequest = requestObject({ challengeToken, code: ZTotpCode });
export const ZPasskeyRegistrationRequest = requestObject({
  challengeToken,
  response: webAuthnResponse,
  label: z.string().trim().max(60, M.labelTooLong).optional(),
});

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON). */
export const ZWebAuthnOptions = z.record(z.string(), z.unknown());

/** A sign-in finished by enrolling: the session, and the recovery codes, shown this once. */
export const ZEnrolledLoginResult = ZBrowserLoginResult.extend({ recoveryCodes: z.array(z.string()) });

// The account's security page.

export const ZFactorSummary = z.object({
  id: z.string(),
  kind: z.enum(['totp', 'passkey']),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

export const ZSecurityOverview = z.object({
  factors: z.array(ZFactorSummary),
  recoveryCodesLeft: z.number().int(),
  /** Whether this account must keep a second factor (staff, when the academy asks for one). */
  required: z.boolean(),
});
export type TSecurityOverview = z.infer<typeof ZSecurityOverview>;

export const ZConfirmOwnTotpRequest = requestObject({ code: ZTotpCode, label: z.string().trim().max(60, M.labelTooLong).optional() });
export const ZOwnPasskeyRequest = requestObject({ response: webAuthnResponse, label: z.string().trim().max(60, M.labelTooLong).optional() });
export const ZFactorIdRequest = requestObject({ factorId: z.uuid(M.factorMissing) });
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export const ZMemberRequest = requestObject({ userId: z.uuid(MESSAGES.validation.fillAllFields) });

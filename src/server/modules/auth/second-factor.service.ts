import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TSecondFactorMethod, TSecurityOverview, TTotpEnrolment } from '../../../shared/schemas/second-factor.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { publicBaseUrl } from '../../env.ts';
import { AppError } from '../../lib/errors.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { actorOfStaff, actorOfUser, recordAudit, type TAuditActor } from '../audit/audit.service.ts';
import { getAcademySettings } from '../settings/settings.service.ts';
import { revokeSessionChecks } from '../users/session.service.ts';
import { findAccountById, revokeAllForUser, type TAccount } from './auth.repository.ts';
import {
  claimTotpStep,
  countUnusedRecoveryCodes,
  deleteAllFactors,
  deleteFactor,
  deletePendingTotp,
  findFactors,
  findPasskeyByCredential,
  findTotpFactors,
  insertFactor,
  markPasskeyUsed,
  replaceRecoveryCodes,
  useRecoveryCode,
  type TFactorRow,
} from './second-factor.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'env' | 'logger' | 'rateLimit' | 'site' | 'accessGrants'>;

const M = MESSAGES.secondFactor;

// TOTP (RFC 6238): 6 digits, 30-second steps, SHA-1 as every authenticator app reads it.

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now whose codes are accepted: a clock a little off, a code typed as it changed. */
export const TOTP_WINDOW = 1;

export function totpOf(secret: string, label = 'account'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'Maritime Training Academy',
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export function totpStepAt(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The step of the code if it is right at `atMs` (the step before or after included) and later
 * than the last step used; null otherwise. A code already used, or one older than it, is refused.
 */
export function matchTotp(secret: string, code: string, lastStep: number | null, atMs: number): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: atMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = totpStepAt(atMs) + delta;
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}

// Recovery codes: ten, each of ten characters from an alphabet without look-alikes, used once.

export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as typed (any case, spaces or dashes) as it is hashed. */
export function recoveryCodeHash(code: string): string {
  return hashToken(`recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`);
}

/** A new set of recovery codes replaces the old: the codes to show once. */
export async function issueRecoveryCodes(tx: Executor, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(tx, userId, codes.map(recoveryCodeHash));
  return codes;
}

// Who needs a second factor.

export type TFactorPolicy =
  /** No second factor asked: a learner who has none, or staff where the academy made it optional. */
  | { needed: false }
  /** Asked: these methods. 'enrol' alone: a member of staff who must set one up first. */
  | { needed: true; methods: TSecondFactorMethod[] };

/** Whether the academy asks every member of staff for a second factor. */
export async function staffSecondFactorRequired(deps: Pick<AppDeps, 'db'>): Promise<boolean> {
  return (await getAcademySettings(deps)).staffSecondFactorRequired;
}

/**
 * What a sign-in with the right password must still give. Staff need a factor when the academy
 * asks for one (and enrol when they have none); anyone who has set one up (a learner who turned it
 * on, staff where it is optional) is asked for it.
 */
export async function factorPolicy(deps: Pick<AppDeps, 'db'>, account: Pick<TAccount, 'id' | 'role'>): Promise<TFactorPolicy> {
  const factors = await findFactors(deps.db, account.id);
  if (factors.length > 0) return { needed: true, methods: methodsOf(factors) };
  if (account.role === 'admin' && (await staffSecondFactorRequired(deps))) return { needed: true, methods: ['enrol'] };
  return { needed: false };
}

function methodsOf(factors: TFactorRow[]): TSecondFactorMethod[] {
  const methods: TSecondFactorMethod[] = [];
  if (factors.some((factor) => factor.kind === 'totp')) methods.push('totp');
  if (factors.some((factor) => factor.kind === 'passkey')) methods.push('passkey');
  methods.push('recovery');
  return methods;
}

// Throttling: wrong codes count as wrong passwords do, per account and per address.

export const SECOND_FACTOR_LIMITS = {
  /** Wrong codes from one address for one account. */
  perAddressAndAccount: { limit: 5, windowMs: 15 * 60_000 },
  /** Wrong codes from one address, whatever the account. */
  perIp: { limit: 100, windowMs: 15 * 60_000 },
  /** Wrong codes for one account from every address: then the account waits, whoever asks. */
  perAccount: { limit: 20, windowMs: 15 * 60_000, slowAfter: 5, maxDelayMs: 3000 },
} as const;

export const secondFactorKeys = {
  addressAndAccount: (userId: string, ip: string) => `2fa:fail:${ip}:${userId}`,
  ip: (ip: string) => `2fa:fail:ip:${ip}`,
  account: (userId: string) => `2fa:fail:account:${userId}`,
  usedChallenge: (jti: string) => `2fa:used:${jti}`,
};

function tooManyCodes(deps: Deps, key: string, resetInMs: number): AppError {
  deps.logger.warn({ key }, 'second factor throttled');
  const retryAfterSeconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('TOO_MANY_REQUESTS', M.tooManyCodes(Math.ceil(retryAfterSeconds / 60)), { retryAfterSeconds });
}

/**
 * Counts this try before the code is checked (fifty sent together cannot all slip under the
 * limit); a right code takes its try back. Returns what to do once the code has been checked.
 */
export async function throttleSecondFactor(deps: Deps, userId: string, ip: string) {
  const store = deps.rateLimit;
  const L = SECOND_FACTOR_LIMITS;
  const ipFailures = await store.peek(secondFactorKeys.ip(ip));
  if (ipFailures.count >= L.perIp.limit) throw tooManyCodes(deps, secondFactorKeys.ip(ip), ipFailures.resetInMs);
  const accountFailures = await store.peek(secondFactorKeys.account(userId));
  if (accountFailures.count >= L.perAccount.limit) throw tooManyCodes(deps, secondFactorKeys.account(userId), accountFailures.resetInMs);
  const pairKey = secondFactorKeys.addressAndAccount(userId, ip);
  const pair = await store.hit(pairKey, L.perAddressAndAccount.windowMs);
  if (pair.count > L.perAddressAndAccount.limit) throw tooManyCodes(deps, pairKey, pair.resetInMs);
  if (accountFailures.count >= L.perAccount.slowAfter) {
    await sleep(Math.min(L.perAccount.maxDelayMs, 250 * 2 ** (accountFailures.count - L.perAccount.slowAfter)));
  }
  return {
    succeeded: () => store.takeBack(pairKey, 1),
    failed: async () => {
      await Promise.all([
        store.hit(secondFactorKeys.ip(ip), L.perIp.windowMs),
        store.hit(secondFactorKeys.account(userId), L.perAccount.windowMs),
      ]);
    },
  };
}

/** A failed second factor in the audit trail, in a transaction of its own (nothing else changed). */
export async function auditFailedSecondFactor(
  deps: Pick<AppDeps, 'db'>,
  account: Pick<TAccount, 'id' | 'role' | 'staffRole'> & { name: string },
  ip: string,
  method: string,
): Promise<void> {
  await deps.db.transaction((tx) =>
    recordAudit(tx, userActor(account, ip), {
      action: 'auth.second-factor-failed',
      subjectType: 'user',
      subjectId: account.id,
      learnerId: account.role === 'learner' ? account.id : null,
      after: { method },
    }),
  );
}

export function userActor(account: Pick<TAccount, 'id' | 'role' | 'staffRole'> & { name: string }, ip: string | null): TAuditActor {
  return actorOfUser({ id: account.id, name: account.name, role: account.role, staffRole: account.staffRole }, ip);
}

// Checking a factor. Each returns what was used, or null when it was wrong.

export type TFactorUse = { method: 'totp' | 'passkey' | 'recovery'; factorId: string | null };

/** A TOTP code against the user's confirmed apps; the step is claimed so the code works once. */
export async function checkTotpCode(tx: Executor, userId: string, code: string, at: Date): Promise<TFactorUse | null> {
  const factors = (await findTotpFactors(tx, userId, true)).filter((factor) => factor.confirmedAt !== null);
  for (const factor of factors) {
    const step = matchTotp(factor.totpSecret!, code, factor.totpLastStep, at.getTime());
    if (step !== null && (await claimTotpStep(tx, factor.id, step, at, false))) return { method: 'totp', factorId: factor.id };
  }
  return null;
}

export async function checkRecoveryCode(tx: Executor, userId: string, code: string, at: Date): Promise<TFactorUse | null> {
  return (await useRecoveryCode(tx, userId, recoveryCodeHash(code), at)) ? { method: 'recovery', factorId: null } : null;
}

// WebAuthn: the relying party is the portal's public address.

/** WebAuthn options as the JSON the browser's library reads. */
function asJson(options: object): Record<string, unknown> {
  return options as Record<string, unknown>;
}

export function relyingParty(deps: Pick<AppDeps, 'env' | 'site'>): { id: string; name: string; origin: string } {
  const base = new URL(publicBaseUrl(deps.env));
  return { id: base.hostname, name: deps.site.name, origin: base.origin };
}

export async function passkeySignInOptions(deps: Deps, userId: string, challenge: string) {
  const rp = relyingParty(deps);
  const passkeys = (await findFactors(deps.db, userId)).filter((factor) => factor.kind === 'passkey');
  return asJson(await generateAuthenticationOptions({
    rpID: rp.id,
    challenge: Buffer.from(challenge, 'base64url'),
    userVerification: 'preferred',
    allowCredentials: passkeys.map((key) => ({ id: key.credentialId!, transports: (key.transports ?? undefined) as never })),
  }));
}

/** A passkey's assertion for the challenge; the signature counter must not go back. */
export async function checkPasskey(
  tx: Executor,
  deps: Pick<AppDeps, 'env' | 'site'>,
  userId: string,
  response: Record<string, unknown>,
  challenge: string,
  at: Date,
): Promise<TFactorUse | null> {
  const assertion = response as unknown as AuthenticationResponseJSON;
  if (typeof assertion.id !== 'string') return null;
  const key = await findPasskeyByCredential(tx, userId, assertion.id);
  if (!key) return null;
  const rp = relyingParty(deps);
  try {
    const result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: Buffer.from(challenge, 'base64url').toString('base64url'),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId!,
        publicKey: Buffer.from(key.publicKey!, 'base64url'),
        counter: key.signCount,
        transports: (key.transports ?? undefined) as never,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    await markPasskeyUsed(tx, key.id, result.authenticationInfo.newCounter, at);
    return { method: 'passkey', factorId: key.id };
  } catch {
    return null;
  }
}


// Enrolment: the same steps from the sign-in's enrolment screen and from the security page.

/** A new authenticator-app secret, pending until its first code confirms it (a new start replaces it). */
export async function startTotp(deps: Pick<AppDeps, 'db'>, account: Pick<TAccount, 'id' | 'email'>): Promise<TTotpEnrolment> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await deps.db.transaction(async (tx) => {
    await deletePendingTotp(tx, account.id);
    await insertFactor(tx, { userId: account.id, kind: 'totp', label: 'Authenticator app', totpSecret: secret });
  });
  const uri = totpOf(secret, account.email).toString();
  const qrCode = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret, uri, qrCode };
}

/** Confirms the pending app with its first code (which is then used up); false for a wrong code. */
export async function confirmTotp(tx: Executor, userId: string, code: string, at: Date, label?: string): Promise<TFactorRow | null> {
  const pending = (await findTotpFactors(tx, userId, true)).find((factor) => factor.confirmedAt === null);
  if (!pending) throw new AppError('BAD_REQUEST', M.noPendingApp, { fields: { code: M.noPendingApp } });
  const step = matchTotp(pending.totpSecret!, code, pending.totpLastStep, at.getTime());
  if (step === null || !(await claimTotpStep(tx, pending.id, step, at, true))) return null;
  if (label) {
    // The label is the user's own name for it; set with the confirmation.
    await deleteFactor(tx, userId, pending.id);
    return insertFactor(tx, { userId, kind: 'totp', label, totpSecret: pending.totpSecret, totpLastStep: step, confirmedAt: at, lastUsedAt: at });
  }
  return { ...pending, confirmedAt: at, totpLastStep: step };
}

export async function passkeyRegistrationOptions(
  deps: Pick<AppDeps, 'db' | 'env' | 'site'>,
  account: Pick<TAccount, 'id' | 'email'> & { name: string },
  challenge: string,
) {
  const rp = relyingParty(deps);
  const existing = (await findFactors(deps.db, account.id)).filter((factor) => factor.kind === 'passkey');
  return asJson(await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.email,
    userDisplayName: account.name,
    userID: Buffer.from(account.id),
    challenge: Buffer.from(challenge, 'base64url'),
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.credentialId!, transports: key.transports ?? undefined })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  }));
}

/** Checks a new passkey's registration against the challenge and keeps it; null when it does not hold. */
export async function registerPasskey(
  tx: Executor,
  deps: Pick<AppDeps, 'env' | 'site'>,
  userId: string,
  response: Record<string, unknown>,
  challenge: string,
  at: Date,
  label = 'Passkey',
): Promise<TFactorRow | null> {
  const rp = relyingParty(deps);
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: Buffer.from(challenge, 'base64url').toString('base64url'),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified || !result.registrationInfo) return null;
    const { credential } = result.registrationInfo;
    return await insertFactor(tx, {
      userId,
      kind: 'passkey',
      label,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: credential.transports ?? null,
      confirmedAt: at,
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    return null;
  }
}

export function factorAudit(factor: Pick<TFactorRow, 'id' | 'kind' | 'label'>) {
  return { factorId: factor.id, kind: factor.kind, label: factor.label };
}

// The account's security page.

export async function securityOverview(deps: Pick<AppDeps, 'db'>, user: TSessionUser): Promise<TSecurityOverview> {
  const [factors, recoveryCodesLeft, required] = await Promise.all([
    findFactors(deps.db, user.id),
    countUnusedRecoveryCodes(deps.db, user.id),
    user.role === 'admin' ? staffSecondFactorRequired(deps) : Promise.resolve(false),
  ]);
  return {
    factors: factors.map((factor) => ({
      id: factor.id,
      kind: factor.kind,
      label: factor.label,
      createdAt: factor.createdAt.toISOString(),
      lastUsedAt: factor.lastUsedAt?.toISOString() ?? null,
    })),
    recoveryCodesLeft,
    required,
  };
}

function ownActor(user: TSessionUser, ip: string): TAuditActor {
  return actorOfUser(user, ip);
}

/**
 * After a factor is added from the security page: the first factor brings a set of recovery codes
 * (returned to show once); later ones leave the set as it is.
 */
async function afterOwnEnrolment(tx: Executor, user: TSessionUser, ip: string, factor: TFactorRow): Promise<string[]> {
  const factors = await findFactors(tx, user.id);
  const first = factors.length === 1;
  const codes = first || (await countUnusedRecoveryCodes(tx, user.id)) === 0 ? await issueRecoveryCodes(tx, user.id) : [];
  await recordAudit(tx, ownActor(user, ip), {
    action: 'auth.factor-enrolled',
    subjectType: 'user',
    subjectId: user.id,
    learnerId: user.role === 'learner' ? user.id : null,
    after: { ...factorAudit(factor), recoveryCodesIssued: codes.length > 0 },
  });
  return codes;
}

export async function startOwnTotp(deps: Deps, user: TSessionUser): Promise<TTotpEnrolment> {
  return startTotp(deps, user);
}

export async function confirmOwnTotp(deps: Deps, user: TSessionUser, ip: string, code: string, label?: string): Promise<{ recoveryCodes: string[] }> {
  const attempt = await throttleSecondFactor(deps, user.id, ip);
  const at = new Date();
  const outcome = await deps.db.transaction(async (tx) => {
    const factor = await confirmTotp(tx, user.id, code, at, label);
    if (!factor) return null;
    return afterOwnEnrolment(tx, user, ip, factor);
  });
  if (!outcome) {
    await attempt.failed();
    throw new AppError('BAD_REQUEST', M.codeWrong, { fields: { code: M.codeWrong } });
  }
  await attempt.succeeded();
  return { recoveryCodes: outcome };
}

/** The security page's passkey registration: its challenge is kept in the store for a few minutes. */
export async function ownPasskeyOptions(deps: Deps, user: TSessionUser) {
  const challenge = randomToken(32);
  await deps.rateLimit.reset(ownPasskeyKey(user.id, challenge));
  await deps.rateLimit.hit(ownPasskeyKey(user.id, challenge), 5 * 60_000);
  return passkeyRegistrationOptions(deps, user, challenge);
}

function ownPasskeyKey(userId: string, challenge: string) {
  return `2fa:reg:${userId}:${challenge}`;
}

export async function finishOwnPasskey(
  deps: Deps,
  user: TSessionUser,
  ip: string,
  response: Record<string, unknown>,
  label?: string,
): Promise<{ recoveryCodes: string[] }> {
  const challenge = challengeOfResponse(response);
  // The challenge must be one this server handed to this user a moment ago, used once.
  const issued = challenge ? await deps.rateLimit.peek(ownPasskeyKey(user.id, challenge)) : { count: 0 };
  if (!challenge || issued.count !== 1) throw new AppError('BAD_REQUEST', M.passkeyFailed);
  await deps.rateLimit.hit(ownPasskeyKey(user.id, challenge), 5 * 60_000);
  const at = new Date();
  const outcome = await deps.db.transaction(async (tx) => {
    const factor = await registerPasskey(tx, deps, user.id, response, challenge, at, label || 'Passkey');
    if (!factor) return null;
    return afterOwnEnrolment(tx, user, ip, factor);
  });
  if (!outcome) throw new AppError('BAD_REQUEST', M.passkeyFailed);
  return { recoveryCodes: outcome };
}

/** The challenge a WebAuthn response signed (from its client data), or null. */
export function challengeOfResponse(response: Record<string, unknown>): string | null {
  try {
    const inner = response.response as { clientDataJSON?: unknown } | undefined;
    if (typeof inner?.clientDataJSON !== 'string') return null;
    const clientData = JSON.parse(Buffer.from(inner.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' ? clientData.challenge : null;
  } catch {
    return null;
  }
}

export async function removeOwnFactor(deps: Deps, user: TSessionUser, ip: string, factorId: string): Promise<void> {
  const required = user.role === 'admin' && (await staffSecondFactorRequired(deps));
  await deps.db.transaction(async (tx) => {
    const factors = await findFactors(tx, user.id);
    const factor = factors.find((one) => one.id === factorId);
    if (!factor) throw new AppError('NOT_FOUND', M.factorMissing);
    if (required && factors.length === 1) throw new AppError('CONFLICT', M.lastFactor);
    await deleteFactor(tx, user.id, factorId);
    // With no factor left, the recovery codes go too: nothing is left for them to stand in for.
    if (factors.length === 1) await replaceRecoveryCodes(tx, user.id, []);
    await recordAudit(tx, ownActor(user, ip), {
      action: 'auth.factor-removed',
      subjectType: 'user',
      subjectId: user.id,
      learnerId: user.role === 'learner' ? user.id : null,
      before: factorAudit(factor),
    });
  });
}

export async function regenerateRecoveryCodes(deps: Deps, user: TSessionUser, ip: string): Promise<{ recoveryCodes: string[] }> {
  return deps.db.transaction(async (tx) => {
    if ((await findFactors(tx, user.id)).length === 0) throw new AppError('CONFLICT', M.enrolFirst);
    const recoveryCodes = await issueRecoveryCodes(tx, user.id);
    await recordAudit(tx, ownActor(user, ip), {
      action: 'auth.recovery-codes-regenerated',
      subjectType: 'user',
      subjectId: user.id,
      learnerId: user.role === 'learner' ? user.id : null,
    });
    return { recoveryCodes };
  });
}

/**
 * Another owner resets a member of staff who lost every factor: factors and recovery codes go,
 * the member's sessions end, and they enrol again at their next sign-in. Never oneself.
 */
export async function resetMemberFactors(deps: Deps, actor: TStaffActor, userId: string): Promise<void> {
  if (userId === actor.id) throw new AppError('FORBIDDEN', M.notYourself);
  await deps.db.transaction(async (tx) => {
    const member = await findAccountById(tx, userId);
    if (!member || member.role !== 'admin') throw new AppError('NOT_FOUND', M.notStaff);
    const factors = await findFactors(tx, userId);
    await deleteAllFactors(tx, userId);
    await revokeAllForUser(tx, userId, new Date());
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'auth.factors-reset',
      subjectType: 'user',
      subjectId: userId,
      before: { factors: factors.map(factorAudit) },
      after: { factors: [] },
    });
  });
  await revokeSessionChecks(deps, { userId });
}

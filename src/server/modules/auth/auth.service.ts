import { randomUUID } from 'node:crypto';
import { personName } from '../../../shared/names.ts';
import { SESSION_LIFETIME_DAYS, type TSecondFactorState } from '../../../shared/constants.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  TAuthUser,
  TEmailRequest,
  TForgotPasswordRequest,
  TLoginRequest,
  TRegisterRequest,
  TRegisterResult,
  TResetPasswordRequest,
  TTokenPair,
  TVerifyOtpRequest,
} from '../../../shared/schemas/auth.ts';
import type { TMessageResult } from '../../../shared/schemas/common.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { refuseCommonPassword } from '../../lib/common-passwords.ts';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../../lib/passwords.ts';
import { atLeast } from '../../lib/timing.ts';
import { hashToken, randomToken, signAccessToken, signChallengeToken, verifyChallengeToken, type TChallengeClaims } from '../../lib/tokens.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import {
  claimRefreshToken,
  successorWasUsed,
  findAccountByEmail,
  findAccountById,
  findRefreshTokenByHash,
  insertAccount,
  insertRefreshToken,
  markVerified,
  revokeAllForUser,
  revokeFamily,
  setPasswordHash,
  type TAccount,
} from './auth.repository.ts';
import { revokeSessionChecks } from '../users/session.service.ts';
import { checkCode, giveBackCodeSending, issueCode, throttleCodeSending, useCode } from './otp.service.ts';
import type { TChallengeRequest, TSecondFactorChallenge, TSecondFactorRequest, TTotpEnrolment } from '../../../shared/schemas/second-factor.ts';
import { recordAudit } from '../audit/audit.service.ts';
import {
  auditFailedSecondFactor,
  checkPasskey,
  checkRecoveryCode,
  checkTotpCode,
  confirmTotp,
  factorAudit,
  factorPolicy,
  issueRecoveryCodes,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  secondFactorKeys,
  startTotp,
  throttleSecondFactor,
  userActor,
  type TFactorUse,
} from './second-factor.service.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = SESSION_LIFETIME_DAYS * 24 * 3600_000;

/**
 * Login attempts are counted before the password is checked. Per account only failures count (a
 * success clears the count); per address every attempt counts, with room for a classroom behind
 * one router.
 */
export const LOGIN_LIMITS = {
  /** Wrong passwords from one address for one account; then that address waits for that account. */
  perAddressAndAccount: { limit: 5, windowMs: 15 * 60_000 },
  /** Wrong passwords from one address, whatever the account. */
  perIp: { limit: 100, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from every address: they slow guesses, they never lock out. */
  perAccount: { windowMs: 60 * 60_000, slowAfter: 10, maxDelayMs: 3000 },
} as const;

export const loginKeys = {
  addressAndAccount: (email: string, ip: string) => `login:fail:${ip}:${email}`,
  ip: (ip: string) => `login:fail:ip:${ip}`,
  account: (email: string) => `login:fail:account:${email}`,
};

/**
 * The wait before checking a password from an address that has already failed for this account,
 * growing (doubling every ten failures) with the account's failures from every address. An
 * address that has not been failing waits nothing, so the owner logs in while others guess.
 */
export function loginDelayMs(accountFailures: number): number {
  const { slowAfter, maxDelayMs } = LOGIN_LIMITS.perAccount;
  if (accountFailures < slowAfter) return 0;
  return Math.min(maxDelayMs, 100 * 2 ** Math.floor((accountFailures - slowAfter) / 10));
}

type Deps = Pick<AppDeps, 'db' | 'env' | 'jobs' | 'jwtSecret' | 'logger' | 'rateLimit' | 'site' | 'accessGrants'>;

export function toAuthUser(account: TAccount): TAuthUser {
  return {
    id: account.id,
    name: personName(account),
    email: account.email,
    role: account.role,
    staffRole: account.staffRole,
    verified: account.verifiedAt !== null,
    approved: account.approvedAt !== null,
  };
}

export function sessionUserToAuthUser(user: TSessionUser): TAuthUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role, staffRole: user.staffRole, verified: user.verified, approved: user.approved };
}

export async function register(deps: Deps, input: TRegisterRequest, ip: string): Promise<TRegisterResult> {
  refuseCommonPassword(input.password, 'password');
  await throttleCodeSending(deps, input.email, ip);
  const taken = () => new AppError('CONFLICT', MESSAGES.auth.emailTaken, { fields: { email: MESSAGES.auth.emailTaken } });
  if (await findAccountByEmail(deps.db, input.email)) throw taken();
  const passwordHash = await hashPassword(input.password);
  const job = await deps.db.transaction(async (tx) => {
    const account = await insertAccount(tx, {
      title: input.title,
      firstName: input.firstName,
      lastName: input.lastName,
      mobile: input.mobile,
      email: input.email,
      passwordHash,
    });
    // Two registrations of one e-mail at once: the unique index lets one through.
    if (!account) throw taken();
    return issueCode(tx, deps, account, 'verify_email');
  });
  await deps.jobs.dispatch([job]);
  return { message: MESSAGES.auth.registered, email: input.email };
}

/**
 * The answers that must not tell whether an e-mail has an account take at least this long: a
 * known address does database work (a code issued, a mail queued, a wrong try counted) that an
 * unknown one does not, and the floor hides the difference.
 */
export const ENUMERATION_FLOOR_MS = 300;

export function verifyEmail(deps: Deps, input: TVerifyOtpRequest, ip: string): Promise<TMessageResult> {
  return atLeast(ENUMERATION_FLOOR_MS, async () => {
    const account = await findAccountByEmail(deps.db, input.email);
    const code = await checkCode(deps, account?.verifiedAt ? undefined : account?.id, 'verify_email', input.otp);
    await deps.db.transaction(async (tx) => {
      await useCode(tx, code);
      await markVerified(tx, code.userId, new Date());
    });
    await giveBackCodeSending(deps, input.email, ip);
    return { message: MESSAGES.auth.otpVerified };
  });
}

/** Sends a new verification code. Unknown and already verified e-mails get the same answer, and no mail. */
export async function resendVerification(deps: Deps, input: TEmailRequest, ip: string): Promise<TMessageResult> {
  await throttleCodeSending(deps, input.email, ip);
  return atLeast(ENUMERATION_FLOOR_MS, async () => {
    const account = await findAccountByEmail(deps.db, input.email);
    if (account && !account.verifiedAt) {
      const job = await deps.db.transaction((tx) => issueCode(tx, deps, account, 'verify_email'));
      await deps.jobs.dispatch([job]);
    }
    return { message: MESSAGES.auth.otpResent };
  });
}

/** Sends a password reset code. Unknown e-mails get the same answer, and no mail. */
export async function forgotPassword(deps: Deps, input: TForgotPasswordRequest, ip: string): Promise<TMessageResult> {
  await throttleCodeSending(deps, input.email, ip);
  return atLeast(ENUMERATION_FLOOR_MS, async () => {
    const account = await findAccountByEmail(deps.db, input.email);
    if (account) {
      const job = await deps.db.transaction((tx) => issueCode(tx, deps, account, 'reset_password'));
      await deps.jobs.dispatch([job]);
    }
    return { message: MESSAGES.auth.forgotSent };
  });
}

/**
 * Sets a new password with a reset code and ends every session of the account. The code came by
 * e-mail, so it also proves the address: an account not yet verified becomes verified.
 */
export async function resetPassword(deps: Deps, input: TResetPasswordRequest, ip: string): Promise<TMessageResult> {
  refuseCommonPassword(input.newPassword, 'newPassword');
  const account = await findAccountByEmail(deps.db, input.email);
  const code = await checkCode(deps, account?.id, 'reset_password', input.otp);
  // Hashed only once the code is known to be right, so wrong codes cost no hashing.
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    const at = new Date();
    await useCode(tx, code, at);
    await setPasswordHash(tx, code.userId, passwordHash);
    await markVerified(tx, code.userId, at);
    await revokeAllForUser(tx, code.userId, at);
  });
  // The session checks and stream links of every session ended go with them, in every process.
  await revokeSessionChecks(deps, { userId: code.userId });
  await giveBackCodeSending(deps, input.email, ip);
  return { message: MESSAGES.auth.resetDone };
}

function tooManyLogins(deps: Deps, key: string, resetInMs: number): AppError {
  deps.logger.warn({ key }, 'login throttled');
  const retryAfterSeconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('TOO_MANY_REQUESTS', MESSAGES.auth.tooManyLoginAttempts(Math.ceil(retryAfterSeconds / 60)), { retryAfterSeconds });
}

/**
 * Counts this try against its address and account before the password is checked, so fifty tries
 * sent together cannot all slip under the limit; a successful login takes its try back. Returns
 * what to do once the password has been checked.
 */
async function throttleLogin(deps: Deps, email: string, ip: string) {
  const store = deps.rateLimit;
  const ipFailures = await store.peek(loginKeys.ip(ip));
  if (ipFailures.count >= LOGIN_LIMITS.perIp.limit) throw tooManyLogins(deps, loginKeys.ip(ip), ipFailures.resetInMs);
  const pairKey = loginKeys.addressAndAccount(email, ip);
  const pair = await store.hit(pairKey, LOGIN_LIMITS.perAddressAndAccount.windowMs);
  if (pair.count > LOGIN_LIMITS.perAddressAndAccount.limit) throw tooManyLogins(deps, pairKey, pair.resetInMs);
  if (pair.count > 1) {
    const delay = loginDelayMs((await store.peek(loginKeys.account(email))).count);
    if (delay > 0) await sleep(delay);
  }
  return {
    succeeded: () => store.reset(pairKey),
    failed: async () => {
      await Promise.all([
        store.hit(loginKeys.ip(ip), LOGIN_LIMITS.perIp.windowMs),
        store.hit(loginKeys.account(email), LOGIN_LIMITS.perAccount.windowMs),
      ]);
    },
  };
}

/** The tokens of a new or renewed session, and when the session ends (its refresh token's end). */
export type TIssuedSession = TTokenPair & { expiresAt: Date };

/**
 * A new refresh token in the session's family and an access token bound to that session. A
 * session lasts REFRESH_TOKEN_TTL_MS from its login, however often it is renewed.
 */
async function startSession(
  db: Executor,
  jwtSecret: string,
  account: TAccount,
  secondFactor: TSecondFactorState | null,
  session: { familyId: string; expiresAt: Date } = { familyId: randomUUID(), expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) },
): Promise<TIssuedSession> {
  const refreshToken = randomToken(32);
  await insertRefreshToken(db, {
    userId: account.id,
    familyId: session.familyId,
    tokenHash: hashToken(refreshToken),
    expiresAt: session.expiresAt,
    secondFactor,
  });
  const accessToken = signAccessToken(
    { sub: account.id, role: account.role, sid: session.familyId, ...(secondFactor ? { mf: secondFactor } : {}) },
    jwtSecret,
    ACCESS_TOKEN_TTL_SECONDS,
  );
  return { accessToken, refreshToken, expiresAt: session.expiresAt };
}

/** A signed-in session and its user, as a login answers. */
export type TLoginSession = TIssuedSession & { user: TAuthUser };

/** How long the second step of a sign-in may take (enrolment included). */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

/**
 * Logs in with e-mail and password. `adminOnly` is the administrator login (/backend): anyone
 * else is refused even with the right password. Someone who needs a second factor gets no session
 * yet: the answer says so, with a challenge token for the next call and the ways to give it.
 */
export async function login(
  deps: Deps,
  input: TLoginRequest,
  ip: string,
  options: { adminOnly?: boolean } = {},
): Promise<TLoginSession | TSecondFactorChallenge> {
  const attempt = await throttleLogin(deps, input.email, ip);
  const invalid = new AppError('UNAUTHORIZED', MESSAGES.auth.invalidCredentials);
  const account = await findAccountByEmail(deps.db, input.email);
  if (!account) {
    await verifyAgainstDecoy(input.password);
    await attempt.failed();
    throw invalid;
  }
  if (!(await verifyPassword(account.passwordHash, input.password))) {
    await attempt.failed();
    throw invalid;
  }
  await attempt.succeeded();
  // Told only to whoever knows the password, so it reveals nothing to a guesser.
  if (!account.verifiedAt) {
    throw new AppError('FORBIDDEN', MESSAGES.auth.emailNotVerified, { fields: { email: MESSAGES.auth.emailNotVerified } });
  }
  if (options.adminOnly && account.role !== 'admin') throw new AppError('FORBIDDEN', MESSAGES.auth.adminOnly);
  if (account.deactivatedAt) throw new AppError('FORBIDDEN', MESSAGES.auth.deactivated);
  const policy = await factorPolicy(deps, account);
  if (policy.needed) {
    const enrol = policy.methods.includes('enrol');
    const { token } = signChallengeToken(
      { sub: account.id, purpose: enrol ? 'enrol' : 'sign-in', ...(options.adminOnly ? { ao: true } : {}) },
      deps.jwtSecret,
      CHALLENGE_TTL_SECONDS,
    );
    return { secondFactorRequired: true, challengeToken: token, methods: policy.methods };
  }
  return signIn(deps, account, 'waived', ip, null);
}

/** Starts the session of a sign-in that has met its second factor (or had none to meet); staff sign-ins are audited. */
async function signIn(
  deps: Deps,
  account: TAccount,
  secondFactor: TSecondFactorState,
  ip: string,
  use: TFactorUse | null,
  finish?: (tx: Executor) => Promise<TFactorUse | void>,
): Promise<TLoginSession> {
  const session = await deps.db.transaction(async (tx) => {
    // The factor first: a wrong one throws before anything is written.
    use = (await finish?.(tx)) ?? use;
    const started = await startSession(tx, deps.jwtSecret, account, secondFactor);
    if (account.role === 'admin') {
      await recordAudit(tx, userActor({ ...account, name: personName(account) }, ip), {
        action: 'auth.sign-in',
        subjectType: 'user',
        subjectId: account.id,
        after: { secondFactor, method: use?.method ?? null },
      });
    }
    return started;
  });
  deps.logger.info({ userId: account.id, role: account.role, secondFactor }, 'logged in');
  return { ...session, user: toAuthUser(account) };
}

const challengeExpired = () => new AppError('UNAUTHORIZED', MESSAGES.secondFactor.challengeExpired);

/** The account behind a challenge token still able to sign in, or the refusal. */
async function challengedAccount(deps: Deps, challengeToken: string, purpose?: TChallengeClaims['purpose']) {
  const claims = verifyChallengeToken(challengeToken, deps.jwtSecret);
  if (!claims || (purpose && claims.purpose !== purpose)) throw challengeExpired();
  const account = await findAccountById(deps.db, claims.sub);
  if (!account || account.deactivatedAt || !account.verifiedAt) throw challengeExpired();
  if (claims.ao && account.role !== 'admin') throw challengeExpired();
  // A challenge is used once: a second sign-in with the same token is refused.
  if ((await deps.rateLimit.peek(secondFactorKeys.usedChallenge(claims.jti))).count > 0) throw challengeExpired();
  return { claims, account, name: personName(account) };
}

async function useChallenge(deps: Deps, claims: TChallengeClaims): Promise<void> {
  const { count } = await deps.rateLimit.hit(secondFactorKeys.usedChallenge(claims.jti), (CHALLENGE_TTL_SECONDS + 60) * 1000);
  if (count > 1) throw challengeExpired();
}

/** The WebAuthn options for signing in with a passkey, bound to the challenge token. */
export async function passkeySignIn(deps: Deps, input: TChallengeRequest) {
  const { claims, account } = await challengedAccount(deps, input.challengeToken, 'sign-in');
  return passkeySignInOptions(deps, account.id, claims.wc);
}

/**
 * The second step: a code from the app, a recovery code or a passkey's assertion for the
 * challenge. Wrong ones are throttled like passwords and written to the audit trail.
 */
export async function completeSecondFactor(
  deps: Deps,
  input: TSecondFactorRequest,
  ip: string,
  at: Date = new Date(),
): Promise<TLoginSession> {
  const { claims, account, name } = await challengedAccount(deps, input.challengeToken, 'sign-in');
  const attempt = await throttleSecondFactor(deps, account.id, ip);
  const method = input.code !== undefined ? 'totp' : input.recoveryCode !== undefined ? 'recovery' : 'passkey';
  let session: TLoginSession | null = null;
  try {
    session = await signInWith(deps, account, ip, async (tx) => {
      if (input.code !== undefined) return checkTotpCode(tx, account.id, input.code, at);
      if (input.recoveryCode !== undefined) return checkRecoveryCode(tx, account.id, input.recoveryCode, at);
      return checkPasskey(tx, deps, account.id, input.passkey!, claims.wc, at);
    }, claims);
  } catch (err) {
    if (!(err instanceof WrongFactor)) throw err;
  }
  if (!session) {
    await attempt.failed();
    await auditFailedSecondFactor(deps, { ...account, name }, ip, method);
    const message =
      method === 'totp' ? MESSAGES.secondFactor.codeWrong : method === 'recovery' ? MESSAGES.secondFactor.recoveryWrong : MESSAGES.secondFactor.passkeyFailed;
    const field = method === 'totp' ? 'code' : method === 'recovery' ? 'recoveryCode' : 'passkey';
    throw new AppError('UNAUTHORIZED', message, { fields: { [field]: message } });
  }
  await attempt.succeeded();
  return session;
}

class WrongFactor extends Error {}

/**
 * Checks the factor and starts the session in one transaction: a wrong factor changes nothing.
 * The challenge is marked used before the commit, so two uses of one challenge at once cannot
 * both sign in.
 */
function signInWith(
  deps: Deps,
  account: TAccount,
  ip: string,
  check: (tx: Executor) => Promise<TFactorUse | null>,
  claims: TChallengeClaims,
): Promise<TLoginSession> {
  return signIn(deps, account, 'passed', ip, null, async (tx) => {
    const used = await check(tx);
    if (!used) throw new WrongFactor();
    await useChallenge(deps, claims);
    return used;
  });
}

/** Enrolment at sign-in: a member of staff without a factor starts an authenticator app. */
export async function enrolTotpAtSignIn(deps: Deps, input: TChallengeRequest): Promise<TTotpEnrolment> {
  const { account } = await challengedAccount(deps, input.challengeToken, 'enrol');
  return startTotp(deps, account);
}

/** Confirms the app with its first code: the factor, ten recovery codes (shown once) and the session. */
export async function confirmTotpAtSignIn(
  deps: Deps,
  input: { challengeToken: string; code: string },
  ip: string,
  at: Date = new Date(),
): Promise<TLoginSession & { recoveryCodes: string[] }> {
  const { claims, account, name } = await challengedAccount(deps, input.challengeToken, 'enrol');
  const attempt = await throttleSecondFactor(deps, account.id, ip);
  return enrolAndSignIn(deps, account, name, ip, claims, attempt, (tx) => confirmTotp(tx, account.id, input.code, at), 'totp', MESSAGES.secondFactor.codeWrong, 'code');
}

export async function passkeyEnrolmentOptions(deps: Deps, input: TChallengeRequest) {
  const { claims, account, name } = await challengedAccount(deps, input.challengeToken, 'enrol');
  return passkeyRegistrationOptions(deps, { ...account, name }, claims.wc);
}

export async function registerPasskeyAtSignIn(
  deps: Deps,
  input: { challengeToken: string; response: Record<string, unknown>; label?: string | undefined },
  ip: string,
): Promise<TLoginSession & { recoveryCodes: string[] }> {
  const { claims, account, name } = await challengedAccount(deps, input.challengeToken, 'enrol');
  const attempt = await throttleSecondFactor(deps, account.id, ip);
  return enrolAndSignIn(
    deps,
    account,
    name,
    ip,
    claims,
    attempt,
    (tx) => registerPasskey(tx, deps, account.id, input.response, claims.wc, new Date(), input.label || 'Passkey'),
    'passkey',
    MESSAGES.secondFactor.passkeyFailed,
    'passkey',
  );
}

async function enrolAndSignIn(
  deps: Deps,
  account: TAccount,
  name: string,
  ip: string,
  claims: TChallengeClaims,
  attempt: Awaited<ReturnType<typeof throttleSecondFactor>>,
  enrol: (tx: Executor) => Promise<{ id: string; kind: 'totp' | 'passkey'; label: string } | null>,
  method: 'totp' | 'passkey',
  wrong: string,
  field: string,
): Promise<TLoginSession & { recoveryCodes: string[] }> {
  let recoveryCodes: string[] = [];
  try {
    const session = await signIn(deps, account, 'passed', ip, { method, factorId: null }, async (tx) => {
      const factor = await enrol(tx);
      if (!factor) throw new WrongFactor();
      recoveryCodes = await issueRecoveryCodes(tx, account.id);
      await useChallenge(deps, claims);
      await recordAudit(tx, userActor({ ...account, name }, ip), {
        action: 'auth.factor-enrolled',
        subjectType: 'user',
        subjectId: account.id,
        learnerId: account.role === 'learner' ? account.id : null,
        after: { ...factorAudit(factor), recoveryCodesIssued: true },
      });
    });
    await attempt.succeeded();
    return { ...session, recoveryCodes };
  } catch (err) {
    if (!(err instanceof WrongFactor)) throw err;
    await attempt.failed();
    await auditFailedSecondFactor(deps, { ...account, name }, ip, `enrol-${method}`);
    throw new AppError('BAD_REQUEST', wrong, { fields: { [field]: wrong } });
  }
}

/**
 * Trades a refresh token for a new pair, within the session's lifetime from its login. A client
 * written to the spec keeps sending the token from its login: that works as long as no later
 * token of the session has been used. Once a successor has been used, the older token coming back
 * means it was copied, so the whole session (every token since that login) is revoked.
 */
export async function refreshSession(deps: Deps, refreshToken: string | undefined): Promise<TIssuedSession> {
  const expired = () => new AppError('UNAUTHORIZED', MESSAGES.auth.sessionExpired);
  // A browser whose cookie is gone (expired, cleared) sends none.
  if (!refreshToken) throw expired();
  const row = await findRefreshTokenByHash(deps.db, hashToken(refreshToken));
  const at = new Date();
  if (!row || row.revokedAt || row.expiresAt <= at) throw expired();
  const outcome = await deps.db.transaction(async (tx) => {
    if (!(await claimRefreshToken(tx, row.id, at)) && (await successorWasUsed(tx, row))) {
      await revokeFamily(tx, row.familyId, at);
      return 'reused' as const;
    }
    const account = await findAccountById(tx, row.userId);
    if (!account) return 'gone' as const;
    if (account.deactivatedAt) return 'gone' as const;
    return startSession(tx, deps.jwtSecret, account, row.secondFactor, { familyId: row.familyId, expiresAt: row.expiresAt });
  });
  if (outcome === 'reused') {
    await revokeSessionChecks(deps, { sessionId: row.familyId });
    deps.logger.warn({ userId: row.userId, familyId: row.familyId }, 'refresh token reused: family revoked');
    throw expired();
  }
  if (outcome === 'gone') throw expired();
  return outcome;
}

/**
 * Ends the session the refresh token belongs to. Answers the same for a token already ended, or
 * none. `sessionId`, when given, names the session meant: a token of another session (one started
 * after that logout was made) is left alone, and `tokenEnded` is false: the token is still good.
 */
export async function logout(
  deps: Deps,
  refreshToken: string | undefined,
  sessionId?: string,
): Promise<TMessageResult & { tokenEnded: boolean }> {
  const row = refreshToken ? await findRefreshTokenByHash(deps.db, hashToken(refreshToken)) : undefined;
  const meant = row !== undefined && (sessionId === undefined || row.familyId === sessionId);
  if (meant) {
    await revokeFamily(deps.db, row.familyId, new Date());
    await revokeSessionChecks(deps, { sessionId: row.familyId });
  }
  return { message: MESSAGES.auth.loggedOut, tokenEnded: meant || row === undefined };
}

/**
 * Ends every session of an account inside the caller's transaction (a member of staff deactivated):
 * its refresh tokens are revoked, so none renews. Call `revokeSessionChecks` after the commit.
 */
export async function endAllSessions(tx: Executor, userId: string, at: Date): Promise<void> {
  await revokeAllForUser(tx, userId, at);
}

import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import type { TJobRef } from '../../lib/jobs/dispatcher.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { throttle, type TRateLimitRule } from '../../lib/rate-limit.ts';
import {
  consumeCode,
  findLiveCode,
  insertCode,
  recordWrongCode,
  voidLiveCodes,
  type TOtpPurpose,
  type TOtpRow,
} from './auth.repository.ts';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_FAILURES = 5;

/**
 * Sending a code costs a mail, so it is bounded for unknown e-mails too (a 429 tells nothing).
 * Per e-mail, whoever asks: one inbox gets a few codes, never a flood. Per address, only codes not
 * yet used count: a class in a training room uses its codes, and each used code gives its room back
 * (`giveBackCodeSending`), so class after class signs up from the room's one address, while the
 * strangers a sprayer mails never use theirs. The limit still holds two classes of 60 that use their
 * codes from elsewhere (their phones), resends included. Decision 042.
 */
export const OTP_SEND_LIMITS = {
  perEmail: { limit: 3, windowMs: 10 * 60_000 },
  perAddress: { limit: 150, windowMs: 60 * 60_000 },
} satisfies Record<string, TRateLimitRule>;

export const otpSendKeys = {
  email: (email: string) => `otp-send:email:${email}`,
  address: (ip: string) => `otp-send:address:${ip}`,
  /** How many of the address's counted requests were for this e-mail: what its used code gives back. */
  asked: (ip: string, email: string) => `otp-send:asked:${ip}:${email}`,
};

const MAIL_WORDING: Record<TOtpPurpose, { subject: string; lead: string }> = {
  verify_email: { subject: 'your verification code', lead: 'Your verification code is' },
  reset_password: { subject: 'your password reset code', lead: 'Your password reset code is' },
};

/**
 * The stored form of a code: keyed with the server's secret and bound to the user and purpose, so
 * a leaked table does not give codes away by a million guesses and a code of one purpose never
 * matches the other.
 */
function codeHash(secret: string, userId: string, purpose: TOtpPurpose, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${userId}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Refuses with 429 once the e-mail, or the address with its codes not yet used, has asked for too many. */
export async function throttleCodeSending(deps: Pick<AppDeps, 'rateLimit' | 'logger'>, email: string, ip: string) {
  const { perAddress, perEmail } = OTP_SEND_LIMITS;
  await deps.rateLimit.hit(otpSendKeys.asked(ip, email), perAddress.windowMs);
  await throttle(
    deps,
    [
      [otpSendKeys.address(ip), perAddress],
      [otpSendKeys.email(email), perEmail],
    ],
    MESSAGES.auth.tooManyCodes,
  );
}

/**
 * A code for this e-mail was used from this address: the address's requests for it stop counting.
 * Only what this e-mail took is given back, so using codes of one's own buys no room for others.
 */
export async function giveBackCodeSending(deps: Pick<AppDeps, 'rateLimit'>, email: string, ip: string) {
  const asked = otpSendKeys.asked(ip, email);
  const { count } = await deps.rateLimit.peek(asked);
  if (count === 0) return;
  await deps.rateLimit.reset(asked);
  await deps.rateLimit.takeBack(otpSendKeys.address(ip), count);
}

/**
 * Creates a new code inside the caller's transaction (voiding the one before it) and queues the
 * mail that carries it. The code exists only in that mail's body; dispatch the job after commit.
 */
export async function issueCode(
  tx: Executor,
  deps: Pick<AppDeps, 'jwtSecret' | 'site'>,
  user: { id: string; email: string; firstName: string },
  purpose: TOtpPurpose,
  at: Date = new Date(),
): Promise<TJobRef> {
  const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
  await voidLiveCodes(tx, user.id, purpose, at);
  await insertCode(tx, {
    userId: user.id,
    purpose,
    codeHash: codeHash(deps.jwtSecret, user.id, purpose, code),
    expiresAt: new Date(at.getTime() + OTP_TTL_MS),
  });
  const wording = MAIL_WORDING[purpose];
  return queueMail(tx, {
    to: user.email,
    subject: `${deps.site.name}: ${wording.subject}`,
    text: [
      `Hello ${user.firstName},`,
      '',
      `${wording.lead} ${code}.`,
      `It expires in ${OTP_TTL_MS / 60_000} minutes and can be used once.`,
      'If you did not ask for it, you can ignore this e-mail.',
      '',
      deps.site.name,
    ].join('\n'),
  });
}

/**
 * Checks a code without using it. A wrong code counts against the live one; the fifth wrong try
 * ends it. Every failure reads the same, so the answer never says whether an account exists.
 */
export async function checkCode(
  deps: Pick<AppDeps, 'db' | 'jwtSecret'>,
  userId: string | undefined,
  purpose: TOtpPurpose,
  code: string,
  at: Date = new Date(),
): Promise<TOtpRow> {
  const rejected = new AppError('BAD_REQUEST', MESSAGES.auth.otpRejected, { fields: { otp: MESSAGES.auth.otpRejected } });
  if (!userId) throw rejected;
  const live = await findLiveCode(deps.db, userId, purpose, at, OTP_MAX_FAILURES);
  if (!live) throw rejected;
  if (!sameHash(live.codeHash, codeHash(deps.jwtSecret, userId, purpose, code))) {
    await recordWrongCode(deps.db, live.id, at, OTP_MAX_FAILURES);
    throw rejected;
  }
  return live;
}

/** Uses a checked code inside the caller's transaction; refuses if another request used it first. */
export async function useCode(tx: Executor, row: TOtpRow, at: Date = new Date()): Promise<void> {
  if (!(await consumeCode(tx, row.id, at, OTP_MAX_FAILURES))) {
    throw new AppError('BAD_REQUEST', MESSAGES.auth.otpRejected, { fields: { otp: MESSAGES.auth.otpRejected } });
  }
}

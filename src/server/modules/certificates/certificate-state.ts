import { addDays, addMonths, daysBetween, utcDay } from '../../../shared/calendar.ts';
import type { TCertificateState } from '../../../shared/schemas/certificate.ts';

/*
 * A certificate's validity and state, decided here and nowhere else: the service reads a state
 * with `certificateState`, the repository filters by one through `stateCondition` (the same rule
 * as data), and the reminders pick their stage with `dueReminderStage`. Days are UTC calendar
 * days; `validUntil` is the last day a certificate is valid.
 */

/** The last day a certificate issued at `issuedAt` is valid: the day before the same date `months` later. */
export function validUntilFor(issuedAt: Date, months: number | null): string | null {
  if (months === null) return null;
  return addDays(addMonths(utcDay(issuedAt), months), -1);
}

/** The facts a state is read from. */
export type TStateFacts = { revokedAt: Date | null; supersededAt: Date | null; validUntil: string | null };

/** How many days before expiry a certificate counts as expiring: the earliest reminder stage. */
export function expiringWindowDays(reminderDays: readonly number[]): number {
  return Math.max(0, ...reminderDays);
}

/**
 * Revoked, then superseded (by its refresher's certificate), then by its dates: expired once its
 * last valid day has passed, expiring from `windowDays` before that day through the day itself,
 * valid otherwise (and always, when it does not expire).
 */
export function certificateState(facts: TStateFacts, today: string, windowDays: number): TCertificateState {
  if (facts.revokedAt) return 'revoked';
  if (facts.supersededAt) return 'superseded';
  if (facts.validUntil === null) return 'valid';
  if (facts.validUntil < today) return 'expired';
  if (facts.validUntil <= addDays(today, windowDays)) return 'expiring';
  return 'valid';
}

/**
 * The same rule as a filter: which rows are in `state` on `today`. `live` means neither revoked
 * nor superseded; `validUntil` bounds are inclusive; `orNoExpiry` also admits rows that never expire.
 */
export type TStateCondition =
  | { kind: 'revoked' }
  | { kind: 'superseded' }
  | { kind: 'live'; validUntilFrom?: string; validUntilTo?: string; orNoExpiry?: boolean };

export function stateCondition(state: TCertificateState, today: string, windowDays: number): TStateCondition {
  switch (state) {
    case 'revoked':
      return { kind: 'revoked' };
    case 'superseded':
      return { kind: 'superseded' };
    case 'expired':
      return { kind: 'live', validUntilTo: addDays(today, -1) };
    case 'expiring':
      return { kind: 'live', validUntilFrom: today, validUntilTo: addDays(today, windowDays) };
    case 'valid':
      return { kind: 'live', validUntilFrom: addDays(today, windowDays + 1), orNoExpiry: true };
  }
}

/**
 * The reminder stage due on `today` for a certificate valid until `validUntil`: the smallest of
 * `reminderDays` that the days left have reached (90, 30, 7: 45 days left is the 90-day stage,
 * 30 days left the 30-day one), none once it has expired. Each stage is sent once; a stage the
 * sweep missed is not sent late once a nearer one is due.
 */
export function dueReminderStage(validUntil: string, today: string, reminderDays: readonly number[]): number | null {
  const daysLeft = daysBetween(today, validUntil);
  if (daysLeft < 0) return null;
  const due = reminderDays.filter((days) => daysLeft <= days);
  return due.length > 0 ? Math.min(...due) : null;
}

import { describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/calendar.ts';
import { CERTIFICATE_STATES } from '../../../shared/schemas/certificate.ts';
import { certificateState, dueReminderStage, expiringWindowDays, stateCondition, validUntilFor, type TStateCondition, type TStateFacts } from './certificate-state.ts';

const live = { revokedAt: null, supersededAt: null };
const TODAY = '2026-06-15';

describe('validUntilFor', () => {
  it('is the day before the same date the validity later', () => {
    expect(validUntilFor(new Date('2026-03-10T09:00:00Z'), 60)).toBe('2031-03-09');
    expect(validUntilFor(new Date('2026-03-01T00:00:00Z'), 60)).toBe('2031-02-28');
    expect(validUntilFor(new Date('2026-12-15T12:00:00Z'), 1)).toBe('2027-01-14');
  });

  it('takes the month’s last day when the later month is shorter, then the day before it', () => {
    // 31 January + 1 month is 28 February (no 31st), so the last valid day is the 27th.
    expect(validUntilFor(new Date('2026-01-31T08:00:00Z'), 1)).toBe('2026-02-27');
    expect(validUntilFor(new Date('2026-08-31T08:00:00Z'), 6)).toBe('2027-02-27');
    // A leap year's February: 31 January 2028 + 1 month is 29 February.
    expect(validUntilFor(new Date('2028-01-31T08:00:00Z'), 1)).toBe('2028-02-28');
    // Issued on 29 February: five years on there is no 29th.
    expect(validUntilFor(new Date('2024-02-29T10:00:00Z'), 60)).toBe('2029-02-27');
    expect(validUntilFor(new Date('2026-10-31T10:00:00Z'), 1)).toBe('2026-11-29');
    expect(validUntilFor(new Date('2026-12-31T10:00:00Z'), 120)).toBe('2036-12-30');
  });

  it('counts from the UTC day of issue, whatever the hour', () => {
    expect(validUntilFor(new Date('2026-05-31T23:59:59.999Z'), 12)).toBe('2027-05-30');
    expect(validUntilFor(new Date('2026-05-31T22:30:00-02:00'), 12)).toBe('2027-05-31');
  });

  it('is null for a course whose certificate does not expire', () => {
    expect(validUntilFor(new Date('2026-05-31T10:00:00Z'), null)).toBeNull();
  });
});

describe('certificateState', () => {
  const window = expiringWindowDays([90, 30, 7]);

  it('takes its window from the earliest reminder', () => {
    expect(window).toBe(90);
    expect(expiringWindowDays([7, 30])).toBe(30);
  });

  it('is expiring through the last valid day and expired the day after', () => {
    const at = (validUntil: string) => certificateState({ ...live, validUntil }, TODAY, window);
    expect(at(addDays(TODAY, 1))).toBe('expiring');
    expect(at(TODAY)).toBe('expiring');
    expect(at(addDays(TODAY, -1))).toBe('expired');
    expect(at(addDays(TODAY, window))).toBe('expiring');
    expect(at(addDays(TODAY, window + 1))).toBe('valid');
  });

  it('is valid for ever when it does not expire; revoked, then superseded, before any date', () => {
    expect(certificateState({ ...live, validUntil: null }, TODAY, window)).toBe('valid');
    const past = addDays(TODAY, -400);
    expect(certificateState({ revokedAt: new Date(), supersededAt: new Date(), validUntil: past }, TODAY, window)).toBe('revoked');
    expect(certificateState({ revokedAt: null, supersededAt: new Date(), validUntil: past }, TODAY, window)).toBe('superseded');
  });
});

/** Whether a row meets the condition the repository turns into SQL, read the way the SQL reads it. */
function meets(facts: TStateFacts, condition: TStateCondition): boolean {
  if (condition.kind === 'revoked') return facts.revokedAt !== null;
  if (condition.kind === 'superseded') return facts.revokedAt === null && facts.supersededAt !== null;
  if (facts.revokedAt !== null || facts.supersededAt !== null) return false;
  if (facts.validUntil === null) return condition.orNoExpiry === true;
  return (condition.validUntilFrom === undefined || facts.validUntil >= condition.validUntilFrom) && (condition.validUntilTo === undefined || facts.validUntil <= condition.validUntilTo);
}

describe('stateCondition', () => {
  it('admits exactly the rows certificateState puts in the state, across the boundaries', () => {
    const rows: TStateFacts[] = [{ ...live, validUntil: null }, { revokedAt: new Date(), supersededAt: null, validUntil: null }, { revokedAt: null, supersededAt: new Date(), validUntil: TODAY }];
    for (let offset = -3; offset <= 95; offset += 1) rows.push({ ...live, validUntil: addDays(TODAY, offset) });
    for (const state of CERTIFICATE_STATES) {
      const condition = stateCondition(state, TODAY, 90);
      for (const row of rows) expect(meets(row, condition), `${state} ${JSON.stringify(row)}`).toBe(certificateState(row, TODAY, 90) === state);
    }
  });
});

describe('dueReminderStage', () => {
  it('is the nearest stage the days left have reached, none before the first or after expiry', () => {
    const stage = (daysLeft: number) => dueReminderStage(addDays(TODAY, daysLeft), TODAY, [90, 30, 7]);
    expect(stage(91)).toBeNull();
    expect(stage(90)).toBe(90);
    expect(stage(45)).toBe(90);
    expect(stage(30)).toBe(30);
    expect(stage(7)).toBe(7);
    expect(stage(0)).toBe(7);
    expect(stage(-1)).toBeNull();
  });
});

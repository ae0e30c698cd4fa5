import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import { academyClock, standingMessage, standingOf, type TStandingFacts } from './attempt-policy.ts';

const T = MESSAGES.tests;
const now = new Date('2026-11-26T09:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const facts = (overrides: Partial<TStandingFacts> = {}): TStandingFacts => ({
  test: { attemptsAllowed: 3, waitMinutes: 10 },
  trainingSubmittedAt: minutesAgo(120),
  extraAttempts: 0,
  usedInRound: 0,
  submittedCount: 0,
  lastSubmittedAt: null,
  passed: false,
  hasOpenAttempt: false,
  ...overrides,
});

describe('where a learner stands', () => {
  it('may start while attempts are left and the wait has passed', () => {
    expect(standingOf(facts(), now)).toEqual({ state: 'open', attemptsAllowed: 3, attemptsUsed: 0, attemptsLeft: 3, nextAttemptAt: null });
    expect(standingOf(facts({ usedInRound: 1, submittedCount: 1, lastSubmittedAt: minutesAgo(10) }), now).state).toBe('open');
  });

  it('waits until the wait since the last submission has passed, on the given clock', () => {
    const standing = standingOf(facts({ usedInRound: 1, submittedCount: 1, lastSubmittedAt: minutesAgo(3) }), now);
    expect(standing).toMatchObject({ state: 'waiting', attemptsLeft: 2, nextAttemptAt: new Date('2026-11-26T09:07:00Z') });
    expect(standingMessage(standing, now)).toBe(`${T.nextAttemptAt('14:37 IST', 7)} ${T.attemptsLeft(2)}`);
  });

  it('counts granted attempts, and is exhausted when none are left', () => {
    expect(standingOf(facts({ usedInRound: 3, extraAttempts: 1, lastSubmittedAt: minutesAgo(60) }), now)).toMatchObject({ state: 'open', attemptsAllowed: 4, attemptsLeft: 1 });
    expect(standingOf(facts({ usedInRound: 3, submittedCount: 3 }), now).state).toBe('exhausted');
    // A round that ended with its last failed attempt: the training was reset.
    const ended = standingOf(facts({ trainingSubmittedAt: null, submittedCount: 3 }), now);
    expect(ended).toMatchObject({ state: 'exhausted', attemptsLeft: 0 });
    expect(standingMessage(ended, now)).toBe(T.attemptsUsed(3));
  });

  it('puts a pass first, then a missing test, an open attempt and the training', () => {
    expect(standingOf(facts({ passed: true, test: null }), now).state).toBe('passed');
    expect(standingOf(facts({ test: null }), now).state).toBe('noTest');
    expect(standingOf(facts({ hasOpenAttempt: true, usedInRound: 3 }), now).state).toBe('inProgress');
    expect(standingOf(facts({ trainingSubmittedAt: null }), now).state).toBe('training');
  });

  it('names times on the academy’s clock, India Standard Time', () => {
    expect(academyClock(new Date('2026-11-26T18:45:00Z'))).toBe('00:15 IST');
  });
});

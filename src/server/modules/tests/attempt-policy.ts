import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestState } from '../../../shared/schemas/tests.ts';

const T = MESSAGES.tests;

/** What the policy needs to know about a learner, a course and its published test. */
export type TStandingFacts = {
  /** The course's published test's policy; null when no test is published. */
  test: { attemptsAllowed: number; waitMinutes: number } | null;
  /** When this round of training was submitted (null: not submitted, or a round has ended). */
  trainingSubmittedAt: Date | null;
  /** Attempts an administrator granted in this round (negative for a round opened by a grant). */
  extraAttempts: number;
  /** Attempts at the course started since the training was submitted. */
  usedInRound: number;
  /** Attempts at the course ever submitted, and when the last one was. */
  submittedCount: number;
  lastSubmittedAt: Date | null;
  passed: boolean;
  /** Whether an attempt at the published test is open (it may be resumed). */
  hasOpenAttempt: boolean;
};

export type TStanding = {
  state: TTestState;
  attemptsAllowed: number;
  attemptsUsed: number;
  attemptsLeft: number;
  /** While waiting: when the next attempt may start. */
  nextAttemptAt: Date | null;
};

/**
 * Where the learner stands, on the server's clock `now`: a pass ends the test; an open attempt may
 * be resumed; otherwise a new attempt needs the training submitted, an attempt left in the round
 * (the test's allowance and any granted, less those started since the submission) and the wait
 * since the last submitted attempt to have passed.
 */
export function standingOf(facts: TStandingFacts, now: Date): TStanding {
  const allowance = facts.test?.attemptsAllowed ?? 0;
  const inRound = facts.trainingSubmittedAt !== null;
  const attemptsAllowed = inRound ? Math.max(0, allowance + facts.extraAttempts) : allowance;
  const attemptsUsed = inRound ? facts.usedInRound : 0;
  const attemptsLeft = Math.max(0, attemptsAllowed - attemptsUsed);
  const standing = (state: TTestState, nextAttemptAt: Date | null = null): TStanding => ({
    state,
    attemptsAllowed,
    attemptsUsed,
    attemptsLeft,
    nextAttemptAt,
  });

  if (facts.passed) return standing('passed');
  if (!facts.test) return standing('noTest');
  if (facts.hasOpenAttempt) return standing('inProgress');
  // Submitted attempts and no round: the last round's attempts ran out and its training was reset.
  if (!inRound) return facts.submittedCount > 0 ? { ...standing('exhausted'), attemptsUsed: allowance, attemptsLeft: 0 } : standing('training');
  if (attemptsLeft === 0) return standing('exhausted');
  if (facts.lastSubmittedAt && facts.test.waitMinutes > 0) {
    const opensAt = new Date(facts.lastSubmittedAt.getTime() + facts.test.waitMinutes * 60_000);
    if (opensAt > now) return standing('waiting', opensAt);
  }
  return standing('open');
}

/** Whole minutes from `now` until `at`, at least 1. */
export function minutesUntil(at: Date, now: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 60_000));
}

/** India Standard Time has no daylight saving: UTC + 5:30 all year. */
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;

/** "14:32 IST": the academy's clock, which every learner's message names the same way. */
export function academyClock(at: Date): string {
  const shifted = new Date(at.getTime() + IST_OFFSET_MS);
  return `${String(shifted.getUTCHours()).padStart(2, '0')}:${String(shifted.getUTCMinutes()).padStart(2, '0')} IST`;
}

export function nextAttemptMessage(at: Date, now: Date): string {
  return T.nextAttemptAt(academyClock(at), minutesUntil(at, now));
}

/** The standing in the catalogue's words: what the learner may do, or why the test is closed. */
export function standingMessage(standing: TStanding, now: Date): string {
  switch (standing.state) {
    case 'passed':
      return T.alreadyPassed;
    case 'noTest':
      return T.noneForCourse;
    case 'training':
      return T.trainingFirst;
    case 'exhausted':
      return T.attemptsUsed(standing.attemptsAllowed);
    case 'waiting':
      return `${nextAttemptMessage(standing.nextAttemptAt!, now)} ${T.attemptsLeft(standing.attemptsLeft)}`;
    case 'inProgress':
      return T.attemptInProgress;
    case 'open':
      return T.attemptsLeft(standing.attemptsLeft);
  }
}

import type { TTestSession } from '../../../shared/schemas/tests.ts';

/** The learner's choice per question id. */
export type TChosenAnswers = Record<string, string>;

const keyOf = (attemptId: string) => `testAnswers_${attemptId}`;

/**
 * The answers chosen so far in one attempt, kept in the tab's sessionStorage so a reload (a ship's
 * link dropping half way through a test) does not lose them. Only answers that still fit the test
 * are read back: a question and one of its options.
 */
export function readAnswers(storage: Storage, session: TTestSession): TChosenAnswers {
  let stored: unknown;
  try {
    stored = JSON.parse(storage.getItem(keyOf(session.attempt.id)) ?? '{}');
  } catch {
    return {};
  }
  if (!stored || typeof stored !== 'object') return {};
  const answers: TChosenAnswers = {};
  for (const question of session.test.questions) {
    const chosen = (stored as Record<string, unknown>)[question.id];
    if (typeof chosen === 'string' && question.options.includes(chosen)) answers[question.id] = chosen;
  }
  return answers;
}

export function writeAnswers(storage: Storage, attemptId: string, answers: TChosenAnswers): void {
  try {
    storage.setItem(keyOf(attemptId), JSON.stringify(answers));
  } catch {
    // Storage full or refused (private mode): the answers stay on the page, only a reload loses them.
  }
}

/** Forgets an attempt's answers once it is submitted. */
export function clearAnswers(storage: Storage, attemptId: string): void {
  try {
    storage.removeItem(keyOf(attemptId));
  } catch {
    // Nothing kept, nothing to clear.
  }
}

import { randomInt } from 'node:crypto';
import type { TAttemptQuestion } from '../../db/schema/tests.ts';

/** A whole number from 0 to `below` - 1. */
export type TRandomIndex = (below: number) => number;

/** A new array of `items` in a random order (Fisher–Yates, unbiased with an unbiased `random`). */
export function shuffled<T>(items: readonly T[], random: TRandomIndex = randomInt): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = random(index + 1);
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}

/**
 * One attempt's questions: `count` of the bank's questions drawn at random (all of them when
 * null or more than the bank holds), in a random order, each with its options in a random order.
 * Every attempt draws anew, so neither a question's place nor an option's letter carries over.
 */
export function drawAttempt(
  bank: ReadonlyArray<{ id: string; options: string[] }>,
  count: number | null,
  random: TRandomIndex = randomInt,
): TAttemptQuestion[] {
  const drawn = shuffled(bank, random).slice(0, count === null ? bank.length : Math.min(count, bank.length));
  return drawn.map((question) => ({ questionId: question.id, options: shuffled(question.options, random) }));
}

/**
 * The questions an attempt asks, in its order, from the bank. An attempt opened before attempts
 * drew their questions (its list is empty) asks every question of the bank, in the bank's order.
 * A drawn question the bank no longer holds is left out.
 */
export function questionsOfAttempt<Q extends { id: string; options: string[] }>(
  drawn: readonly TAttemptQuestion[],
  bank: readonly Q[],
): Array<Q & { shownOptions: string[] }> {
  if (drawn.length === 0) return bank.map((question) => ({ ...question, shownOptions: question.options }));
  const byId = new Map(bank.map((question) => [question.id, question]));
  return drawn.flatMap((entry) => {
    const question = byId.get(entry.questionId);
    return question ? [{ ...question, shownOptions: entry.options }] : [];
  });
}

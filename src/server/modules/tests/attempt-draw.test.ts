import { describe, expect, it } from 'vitest';
import { drawAttempt, questionsOfAttempt, shuffled } from './attempt-draw.ts';

const bank = Array.from({ length: 6 }, (_, index) => ({ id: `q${index + 1}`, options: ['a', 'b', 'c', 'd'].map((letter) => `${letter}${index + 1}`) }));

describe('drawing an attempt', () => {
  it('draws the number asked, each question once, with its own options in some order', () => {
    const drawn = drawAttempt(bank, 4);
    expect(drawn).toHaveLength(4);
    expect(new Set(drawn.map((question) => question.questionId)).size).toBe(4);
    for (const question of drawn) {
      expect([...question.options].sort()).toEqual(bank.find((candidate) => candidate.id === question.questionId)!.options);
    }
  });

  it('draws every question when no number is set, or more than the bank holds', () => {
    expect(drawAttempt(bank, null).map((question) => question.questionId).sort()).toEqual(bank.map((question) => question.id));
    expect(drawAttempt(bank, 50)).toHaveLength(6);
  });

  it('shuffles with every order possible (Fisher–Yates over the random source)', () => {
    // A source that always picks the last place leaves the order; one that always picks the first rotates it.
    expect(shuffled([1, 2, 3, 4], (below) => below - 1)).toEqual([1, 2, 3, 4]);
    expect(shuffled([1, 2, 3, 4], () => 0)).toEqual([2, 3, 4, 1]);
    const seen = new Set<string>();
    for (let run = 0; run < 400; run += 1) seen.add(shuffled([1, 2, 3]).join());
    expect(seen.size).toBe(6);
  });
});

describe('the questions of an attempt', () => {
  it('are the drawn ones in the drawn order, with the drawn order of options', () => {
    const asked = questionsOfAttempt([{ questionId: 'q3', options: ['d3', 'c3', 'b3', 'a3'] }, { questionId: 'q1', options: ['b1', 'a1', 'd1', 'c1'] }], bank);
    expect(asked.map((question) => [question.id, question.shownOptions])).toEqual([
      ['q3', ['d3', 'c3', 'b3', 'a3']],
      ['q1', ['b1', 'a1', 'd1', 'c1']],
    ]);
  });

  it('are the whole bank in its order for an attempt opened before draws were kept', () => {
    expect(questionsOfAttempt([], bank).map((question) => [question.id, question.shownOptions])).toEqual(bank.map((question) => [question.id, question.options]));
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import type { TTestSession } from '../../../shared/schemas/tests.ts';
import { clearAnswers, readAnswers, writeAnswers } from '@/features/tests/answer-storage.ts';

const session = (attemptId: string): TTestSession => ({
  test: {
    id: 'test-1',
    course: { id: 'course-1', title: 'Fire Prevention and Fire Fighting' },
    title: 'Fire Prevention and Fire Fighting',
    passMark: 70,
    waitMinutes: 10,
    questions: [
      { id: 'q1', questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'] },
      { id: 'q2', questionText: 'How many short blasts?', options: ['Three', 'Five', 'Seven', 'Nine'] },
    ],
  },
  attempt: { id: attemptId, startedAt: '2026-11-24T09:00:00.000Z', number: 1, attemptsAllowed: 3 },
});

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('the answers kept for an attempt', () => {
  it('are read back for the same attempt only, and forgotten once cleared', () => {
    writeAnswers(window.sessionStorage, 'attempt-1', { q1: 'CO2', q2: 'Seven' });
    expect(readAnswers(window.sessionStorage, session('attempt-1'))).toEqual({ q1: 'CO2', q2: 'Seven' });
    expect(readAnswers(window.sessionStorage, session('attempt-2'))).toEqual({});
    clearAnswers(window.sessionStorage, 'attempt-1');
    expect(readAnswers(window.sessionStorage, session('attempt-1'))).toEqual({});
  });

  it('keep only answers that still fit the test: a known question and one of its options', () => {
    window.sessionStorage.setItem('testAnswers_attempt-1', JSON.stringify({ q1: 'Sand', q2: 'Five', q9: 'CO2', constructor: 'x' }));
    expect(readAnswers(window.sessionStorage, session('attempt-1'))).toEqual({ q2: 'Five' });
    window.sessionStorage.setItem('testAnswers_attempt-1', '{not json');
    expect(readAnswers(window.sessionStorage, session('attempt-1'))).toEqual({});
    window.sessionStorage.setItem('testAnswers_attempt-1', '"CO2"');
    expect(readAnswers(window.sessionStorage, session('attempt-1'))).toEqual({});
  });
});

import { z } from 'zod';
import { OPTIONS_PER_QUESTION } from '../../../shared/constants.ts';
import { ATTEMPTS_ALLOWED_DEFAULT, WAIT_MINUTES_DEFAULT, ZTestForm, type TTestFormInput } from '../../../shared/schemas/tests.ts';

/** One question as the form holds it: the correct answer is the chosen option's index ('0'–'3'), or '' when none is chosen. */
export type TQuestionValues = { questionText: string; options: string[]; correctAnswer: string };
export type TTestFormValues = {
  courseId: string;
  title: string;
  passMark: string;
  questions: TQuestionValues[];
  /** The attempts policy, as typed: an empty "questions per attempt" is every question. */
  questionsPerAttempt: string;
  attemptsAllowed: string;
  waitMinutes: string;
};

export const emptyQuestion = (): TQuestionValues => ({ questionText: '', options: Array.from({ length: OPTIONS_PER_QUESTION }, () => ''), correctAnswer: '' });

/** A new test starts with one question (spec section 9). */
export const emptyTestValues = (): TTestFormValues => ({
  courseId: '',
  title: '',
  passMark: '',
  questions: [emptyQuestion()],
  questionsPerAttempt: '',
  attemptsAllowed: String(ATTEMPTS_ALLOWED_DEFAULT),
  waitMinutes: String(WAIT_MINUTES_DEFAULT),
});

/** A typed whole number; an emptied box is no number (the schema says what it needs). */
const typedNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/** The form's values as the shared schema reads them: the pass mark a number, the chosen option's text as the answer. */
export function toTestInput(values: TTestFormValues): TTestFormInput {
  const passMark = values.passMark.trim();
  return {
    courseId: values.courseId,
    title: values.title,
    passMark: (passMark === '' ? undefined : Number(passMark)) as number,
    questions: values.questions.map((question) => ({
      questionText: question.questionText,
      options: question.options,
      correctAnswer: question.correctAnswer === '' ? '' : (question.options[Number(question.correctAnswer)] ?? ''),
    })),
    questionsPerAttempt: values.questionsPerAttempt.trim() === '' ? null : typedNumber(values.questionsPerAttempt),
    attemptsAllowed: typedNumber(values.attemptsAllowed),
    waitMinutes: typedNumber(values.waitMinutes),
  };
}

/**
 * The shared ZTestForm over the form's values. Its messages land on the fields they are about,
 * the answer's on the question's choice of option (same path: `questions.N.correctAnswer`).
 */
export const testFormSchema = z.preprocess((values: TTestFormValues) => toTestInput(values), ZTestForm);

/** A server field name (`questions.0.options.2`) as a field of this form, or undefined when it is none. */
export function formFieldOf(serverField: string): string | undefined {
  if (['courseId', 'title', 'passMark', 'questions', 'questionsPerAttempt', 'attemptsAllowed', 'waitMinutes'].includes(serverField)) return serverField;
  return /^questions\.\d+\.(questionText|correctAnswer|options(\.\d)?)$/.test(serverField) ? serverField : undefined;
}

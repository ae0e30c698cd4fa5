import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { courses } from './courses.ts';
import { users } from './users.ts';

export const tests = pgTable(
  'tests',
  {
    id: id(),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    passMark: integer('pass_mark').notNull(),
    isPublished: boolean('is_published').notNull().default(false),
    /** How many questions an attempt draws from the bank; null: every question. */
    questionsPerAttempt: integer('questions_per_attempt'),
    /** Attempts a learner has per round of training before watching it again. */
    attemptsAllowed: integer('attempts_allowed').notNull().default(3),
    /** Minutes between one attempt's submission and the next attempt's start. */
    waitMinutes: integer('wait_minutes').notNull().default(10),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tests_course_idx').on(t.courseId, t.isPublished),
    check('tests_pass_mark_range', sql`${t.passMark} between 0 and 100`),
    check('tests_questions_per_attempt_positive', sql`${t.questionsPerAttempt} is null or ${t.questionsPerAttempt} >= 1`),
    check('tests_attempts_allowed_positive', sql`${t.attemptsAllowed} >= 1`),
    check('tests_wait_minutes_range', sql`${t.waitMinutes} >= 0`),
  ],
);

export const testQuestions = pgTable(
  'test_questions',
  {
    id: id(),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    questionText: text('question_text').notNull(),
    options: jsonb('options').$type<string[]>().notNull(),
    correctAnswer: text('correct_answer').notNull(),
  },
  (t) => [
    uniqueIndex('test_questions_test_position_unique').on(t.testId, t.position),
    check('test_questions_four_options', sql`jsonb_array_length(${t.options}) = 4`),
  ],
);

export type TAttemptQuestion = { questionId: string; options: string[] };

/** An attempt is started by the server (which keeps the clock) and scored by it on submission. */
export const testAttempts = pgTable(
  'test_attempts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id, { onDelete: 'cascade' }),
    courseId: uuid('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** The questions this attempt drew, in the order shown, each with its options in the order shown. */
    questions: jsonb('questions').$type<TAttemptQuestion[]>().notNull().default([]),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    score: integer('score'),
    totalQuestions: integer('total_questions'),
    percentage: real('percentage'),
    timeTakenSeconds: integer('time_taken_seconds'),
    passed: boolean('passed'),
  },
  (t) => [
    index('test_attempts_user_course_idx').on(t.userId, t.courseId),
    // Test Results, newest first (read backwards): a page found from the index alone, also when a
    // search keeps only the attempts of matching learners or courses.
    index('test_attempts_submitted_id_idx').on(t.submittedAt, t.id, t.userId, t.courseId),
    // Test Results searched by learner: the matching learners' attempts, from the index alone.
    index('test_attempts_user_submitted_idx').on(t.userId, t.submittedAt, t.id),
    // Test Results searched by course: that course's attempts, newest first, without a sort.
    index('test_attempts_course_submitted_idx').on(t.courseId, t.submittedAt, t.id),
    // Opening the test twice at once (two tabs) starts one attempt: the second finds the first.
    uniqueIndex('test_attempts_one_open_unique').on(t.userId, t.testId).where(sql`${t.submittedAt} is null`),
    check('test_attempts_percentage_range', sql`${t.percentage} is null or ${t.percentage} between 0 and 100`),
  ],
);

export const testAttemptAnswers = pgTable(
  'test_attempt_answers',
  {
    id: id(),
    attemptId: uuid('attempt_id')
      .notNull()
      .references(() => testAttempts.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => testQuestions.id, { onDelete: 'cascade' }),
    selectedAnswer: text('selected_answer').notNull(),
  },
  (t) => [uniqueIndex('test_attempt_answers_attempt_question_unique').on(t.attemptId, t.questionId)],
);

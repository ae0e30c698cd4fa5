import { z } from 'zod';
import { OPTIONS_PER_QUESTION, RESULTS_SEARCH_MAX_LENGTH } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { plainText, presentText, requestObject, ZId } from './common.ts';
import { ZAdminCertificate } from './certificate.ts';
import { pageFields, pageOf } from './paging.ts';

const T = MESSAGES.tests;
const V = MESSAGES.validation;

export const TEST_MAX_QUESTIONS = 200;
export const TEST_TITLE_MAX_LENGTH = 200;
export const QUESTION_MAX_LENGTH = 2000;
export const OPTION_MAX_LENGTH = 500;
export const RESULTS_PAGE_DEFAULT_SIZE = 20;
export const RESULTS_PAGE_MAX_SIZE = 100;
/** The attempts policy's defaults and bounds (a week's wait at most). */
export const ATTEMPTS_ALLOWED_DEFAULT = 3;
export const ATTEMPTS_ALLOWED_MAX = 20;
export const WAIT_MINUTES_DEFAULT = 10;
export const WAIT_MINUTES_MAX = 7 * 24 * 60;
export const ATTEMPTS_GRANT_MAX = 10;

/** Options are told apart as a learner reads them: spaces around and letter case do not count. */
export const optionKey = (option: string) => option.trim().toLowerCase();

const ZOption = presentText('Option', T.optionRequired).pipe(plainText('Option', OPTION_MAX_LENGTH));

const ZQuestionForm = requestObject({
  questionText: presentText('Question', T.questionRequired).pipe(plainText('Question', QUESTION_MAX_LENGTH)),
  options: z.array(ZOption, { error: T.fourOptions }).length(OPTIONS_PER_QUESTION, T.fourOptions),
  correctAnswer: presentText('Correct answer', T.correctAnswerRequired).pipe(plainText('Correct answer', OPTION_MAX_LENGTH)),
}).superRefine((question, ctx) => {
  const seen = new Set<string>();
  question.options.forEach((option, index) => {
    if (seen.has(optionKey(option))) ctx.addIssue({ code: 'custom', message: T.optionsDistinct, path: ['options', index] });
    seen.add(optionKey(option));
  });
  if (!question.options.includes(question.correctAnswer)) {
    ctx.addIssue({ code: 'custom', message: T.correctAnswerNotOption, path: ['correctAnswer'] });
  }
});

/**
 * The attempts policy's fields, as Create New Test and a policy's change both check them. The
 * bank's size bounds the questions per attempt: the form checks it against its questions, the
 * server against the test's.
 */
const attemptsPolicyFields = {
  /** How many questions each attempt draws at random from the test's questions; null: all of them. */
  questionsPerAttempt: z.number({ error: T.questionsPerAttemptRange }).int(T.questionsPerAttemptRange).min(1, T.questionsPerAttemptRange).nullable(),
  /** Attempts per round of training, before the learner must watch it again (or is granted more). */
  attemptsAllowed: z
    .number({ error: T.attemptsAllowedRange(ATTEMPTS_ALLOWED_MAX) })
    .int(T.attemptsAllowedRange(ATTEMPTS_ALLOWED_MAX))
    .min(1, T.attemptsAllowedRange(ATTEMPTS_ALLOWED_MAX))
    .max(ATTEMPTS_ALLOWED_MAX, T.attemptsAllowedRange(ATTEMPTS_ALLOWED_MAX)),
  /** Minutes from one attempt's submission to the next attempt's start. */
  waitMinutes: z
    .number({ error: T.waitMinutesRange(WAIT_MINUTES_MAX) })
    .int(T.waitMinutesRange(WAIT_MINUTES_MAX))
    .min(0, T.waitMinutesRange(WAIT_MINUTES_MAX))
    .max(WAIT_MINUTES_MAX, T.waitMinutesRange(WAIT_MINUTES_MAX)),
};

/** Create New Test: an active course, its title, the pass mark and at least one question. */
export const ZTestForm = requestObject({
  courseId: z.string({ error: T.courseRequired }).min(1, T.courseRequired).pipe(ZId),
  title: presentText('Title', T.titleRequired).pipe(plainText('Title', TEST_TITLE_MAX_LENGTH)),
  passMark: z
    .number({ error: (issue) => (issue.input === undefined || issue.input === null ? T.passMarkRequired : T.passMarkRange) })
    .int(T.passMarkRange)
    .min(0, T.passMarkRange)
    .max(100, T.passMarkRange),
  questions: z
    .array(ZQuestionForm, { error: T.questionsRequired })
    .min(1, T.questionsRequired)
    .max(TEST_MAX_QUESTIONS, T.tooManyQuestions(TEST_MAX_QUESTIONS)),
  // A client written from the spec sends no policy: the defaults apply.
  questionsPerAttempt: attemptsPolicyFields.questionsPerAttempt.default(null),
  attemptsAllowed: attemptsPolicyFields.attemptsAllowed.default(ATTEMPTS_ALLOWED_DEFAULT),
  waitMinutes: attemptsPolicyFields.waitMinutes.default(WAIT_MINUTES_DEFAULT),
}).superRefine((form, ctx) => {
  if (form.questionsPerAttempt !== null && form.questionsPerAttempt > form.questions.length) {
    ctx.addIssue({ code: 'custom', message: T.questionsPerAttemptTooMany(form.questions.length), path: ['questionsPerAttempt'] });
  }
});
export type TTestForm = z.output<typeof ZTestForm>;
export type TTestFormInput = z.input<typeof ZTestForm>;

export const ZTestIdRequest = requestObject({ testId: ZId });

/**
 * An existing test's attempts policy, all three fields (questions per attempt null: all). It
 * applies to attempts started after the change; an open attempt keeps the questions it drew.
 */
export const ZTestPolicyRequest = requestObject({ testId: ZId, ...attemptsPolicyFields });
export type TTestPolicyRequest = z.output<typeof ZTestPolicyRequest>;
export const ZTestCourseRequest = requestObject({ courseId: ZId });

/** A question as administrators see it, with its answer. */
export const ZAdminQuestion = z.object({
  id: z.string(),
  position: z.number().int(),
  questionText: z.string(),
  options: z.array(z.string()),
  correctAnswer: z.string(),
});

/** A test as administrators see it (All Created Tests, Published tests). */
export const ZAdminTest = z.object({
  id: z.string(),
  course: z.object({ id: z.string(), title: z.string(), isActive: z.boolean() }),
  title: z.string(),
  passMark: z.number().int(),
  isPublished: z.boolean(),
  createdAt: z.string(),
  questions: z.array(ZAdminQuestion),
  /** Questions an attempt draws from the bank; null: every question. */
  questionsPerAttempt: z.number().int().nullable(),
  attemptsAllowed: z.number().int(),
  waitMinutes: z.number().int(),
});
export type TAdminTest = z.infer<typeof ZAdminTest>;

export const ZTestChangeResult = z.object({ message: z.string(), test: ZAdminTest });
export type TTestChangeResult = z.infer<typeof ZTestChangeResult>;

/** A question as a learner receives it: never its answer. */
export const ZLearnerQuestion = z.object({ id: z.string(), questionText: z.string(), options: z.array(z.string()) });

/** The test a learner takes, and the attempt the server started when it was opened. */
export const ZTestSession = z.object({
  test: z.object({
    id: z.string(),
    course: z.object({ id: z.string(), title: z.string() }),
    title: z.string(),
    passMark: z.number().int(),
    /** This attempt's questions, drawn for it, in the order shown, each with its options in the order shown. */
    questions: z.array(ZLearnerQuestion),
    /** Minutes the learner waits after submitting before another attempt may start. */
    waitMinutes: z.number().int(),
  }),
  attempt: z.object({
    id: z.string(),
    startedAt: z.string(),
    /** Which attempt of the round this is (1 for the first) and how many the round allows. */
    number: z.number().int(),
    attemptsAllowed: z.number().int(),
  }),
});
export type TTestSession = z.infer<typeof ZTestSession>;

/** One answer: the question and the option chosen. */
export const selectedAnswerFields = {
  questionId: ZId,
  selectedAnswer: z.string({ error: V.mustBeText('Answer') }).max(OPTION_MAX_LENGTH, V.tooLong('Answer', OPTION_MAX_LENGTH)),
};

/** The answers of one attempt, at most one per question. */
export function answerList<A extends z.ZodType>(answer: A) {
  return z.array(answer, { error: T.answersRequired }).max(TEST_MAX_QUESTIONS, T.answersRequired);
}

/** A learner's answers. The server keeps the clock and scores them; nothing else is taken. */
export const ZTestSubmission = requestObject({
  testId: ZId,
  answers: answerList(requestObject(selectedAnswerFields)),
});
export type TTestSubmission = z.output<typeof ZTestSubmission>;

/** The certificate a pass earned; `pdfUrl` (/certificates/{filename}) once the worker has rendered it, else null. */
export const ZCertificateSummary = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(['pending', 'ready', 'failed']),
  issuedAt: z.string(),
  pdfUrl: z.string().nullable(),
});

/** The learner's result: the score and the answers given, never the correct ones. */
export const ZTestResult = z.object({
  message: z.string(),
  attemptId: z.string(),
  testId: z.string(),
  courseId: z.string(),
  score: z.number().int(),
  totalQuestions: z.number().int(),
  percentage: z.number(),
  passMark: z.number().int(),
  passed: z.boolean(),
  timeTakenSeconds: z.number().int(),
  startedAt: z.string(),
  submittedAt: z.string(),
  answers: z.array(z.object({ questionId: z.string(), selectedAnswer: z.string() })),
  /** The learner's certificate for the course when this attempt passed (the first pass's). */
  certificate: ZCertificateSummary.nullable(),
  /** Attempts left in this round; after the round's last failed attempt, 0 (the training opens again). */
  attemptsLeft: z.number().int(),
  /** When the next attempt may start (after a fail with attempts left), else null. */
  nextAttemptAt: z.string().nullable(),
  /** After a pass only: the questions answered wrongly (never after a fail, so a score is no key). */
  wrongQuestionIds: z.array(z.string()).nullable(),
});
export type TTestResult = z.infer<typeof ZTestResult>;

/**
 * Where a learner stands with a course's test: what the course home and the test page show before
 * an attempt starts. `state` says what is possible; `message` says it in the catalogue's words.
 */
export const TEST_STATES = ['training', 'noTest', 'open', 'inProgress', 'waiting', 'exhausted', 'passed'] as const;
export type TTestState = (typeof TEST_STATES)[number];
export const ZTestStatus = z.object({
  courseId: z.string(),
  state: z.enum(TEST_STATES),
  message: z.string(),
  /** The published test's figures, when there is one. */
  test: z
    .object({ id: z.string(), title: z.string(), passMark: z.number().int(), questionCount: z.number().int(), waitMinutes: z.number().int() })
    .nullable(),
  /** The round's allowance (the test's attempts plus any granted), those started, and those left. */
  attemptsAllowed: z.number().int(),
  attemptsUsed: z.number().int(),
  attemptsLeft: z.number().int(),
  /** While waiting: when the next attempt may start (the server's clock). */
  nextAttemptAt: z.string().nullable(),
  /** The last submitted attempt's result, if any. */
  lastResult: z
    .object({ score: z.number().int(), totalQuestions: z.number().int(), percentage: z.number(), passed: z.boolean(), submittedAt: z.string() })
    .nullable(),
  /**
   * Set while something besides the attempts keeps the test from opening, whatever `state` says
   * (the course needs a complete, approved seafarer profile the learner does not have yet): why,
   * and what to do, in the catalogue's words. Starting an attempt is refused until it clears.
   */
  blocked: z.object({ reason: z.enum(['profileRequired']), message: z.string() }).optional(),
});
export type TTestStatus = z.infer<typeof ZTestStatus>;

/** An administrator grants a learner more attempts at a course's test, for the current round. */
export const ZGrantAttemptsRequest = requestObject({
  userId: ZId,
  courseId: ZId,
  attempts: z
    .number({ error: T.attemptsToGrantRange(ATTEMPTS_GRANT_MAX) })
    .int(T.attemptsToGrantRange(ATTEMPTS_GRANT_MAX))
    .min(1, T.attemptsToGrantRange(ATTEMPTS_GRANT_MAX))
    .max(ATTEMPTS_GRANT_MAX, T.attemptsToGrantRange(ATTEMPTS_GRANT_MAX))
    .default(1),
});
export const ZGrantAttemptsResult = z.object({ message: z.string(), attemptsLeft: z.number().int() });
export type TGrantAttemptsResult = z.infer<typeof ZGrantAttemptsResult>;

/** Test Results: searched over learner name, e-mail and course title, in pages. */
export const ZResultsQuery = requestObject({
  search: z
    .string({ error: V.mustBeText('Search') })
    .trim()
    .max(RESULTS_SEARCH_MAX_LENGTH, T.searchTooLong)
    .default(''),
  ...pageFields({ defaultSize: RESULTS_PAGE_DEFAULT_SIZE, maxSize: RESULTS_PAGE_MAX_SIZE }),
});
export type TResultsQuery = z.input<typeof ZResultsQuery>;

/** One submitted attempt as administrators read it, the selected answers beside the correct ones. */
export const ZResultItem = z.object({
  id: z.string(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  course: z.object({ id: z.string(), title: z.string() }),
  test: z.object({ id: z.string(), title: z.string(), passMark: z.number().int() }),
  score: z.number().int(),
  totalQuestions: z.number().int(),
  percentage: z.number(),
  timeTakenSeconds: z.number().int(),
  startedAt: z.string(),
  submittedAt: z.string(),
  passed: z.boolean(),
  /** The learner's certificate for the course, beside each passed attempt (null otherwise). */
  certificate: ZAdminCertificate.nullable(),
  answers: z.array(
    z.object({
      questionId: z.string(),
      position: z.number().int(),
      questionText: z.string(),
      selectedAnswer: z.string(),
      correctAnswer: z.string(),
      isCorrect: z.boolean(),
    }),
  ),
});
export type TResultItem = z.infer<typeof ZResultItem>;

export const ZResultsPage = pageOf(ZResultItem);
export type TResultsPage = z.infer<typeof ZResultsPage>;

/** Each course's submitted attempts and how many passed (the overview's chart). */
export const ZCoursePassRate = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  attempts: z.number().int(),
  passed: z.number().int(),
  /** Whole percent of the attempts that passed, rounded down. */
  passRate: z.number().int(),
});
export type TCoursePassRate = z.infer<typeof ZCoursePassRate>;

export type TTestFigures = { publishedTests: number; attemptsSince: number; passRates: TCoursePassRate[] };

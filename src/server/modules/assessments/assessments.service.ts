import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import {
  RESULTS_PAGE_DEFAULT_SIZE,
  type TAdminTest,
  type TResultItem,
  type TResultsPage,
  type TResultsQuery,
  type TTestChangeResult,
  type TTestFigures,
  type TTestForm,
  type TTestResult,
  type TTestSession,
  type TTestSubmission,
} from '../../../shared/schemas/assessment.ts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { inBatches, type TWholeList } from '../../lib/whole-list.ts';
import { certificatePdfUrlOf, newVerificationCode, queueCertificateRender, toAdminCertificate } from '../certificates/certificates.service.ts';
import { getCourse } from '../courses/catalogue.service.ts';
import { findApprovedEnrolment } from '../enrolments/enrolments.service.ts';
import {
  completeAttempt,
  countAttemptsByCourse,
  countPublishedTests,
  countSubmittedSince,
  findAllTests,
  findAnswersOf,
  findCertificate,
  findPublishedOfCourse,
  findTestById,
  insertAnswers,
  insertCertificate,
  insertTest,
  lockOpenAttempt,
  nextCertificateSerial,
  openAttempt,
  RESULTS_COUNT_BOUND,
  searchResults as searchResultRows,
  setPublished,
  type TCertificateRow,
  type TResultAnswerRow,
  type TResultRow,
  type TTestWithQuestions,
} from './assessments.repository.ts';

const T = MESSAGES.tests;
type Deps = Pick<AppDeps, 'db' | 'jwtSecret' | 'logger' | 'jobs'>;

function toAdminTest(test: TTestWithQuestions): TAdminTest {
  return {
    id: test.id,
    course: test.course,
    title: test.title,
    passMark: test.passMark,
    isPublished: test.isPublished,
    createdAt: test.createdAt.toISOString(),
    questions: test.questions.map((question) => ({
      id: question.id,
      position: question.position,
      questionText: question.questionText,
      options: question.options,
      correctAnswer: question.correctAnswer,
    })),
  };
}

async function adminTest(deps: Deps, testId: string): Promise<TAdminTest> {
  const test = await findTestById(deps.db, testId);
  if (!test) throw notFound(T.notFound);
  return toAdminTest(test);
}

// ---------------------------------------------------------------------------------------------
// Administrators

/** Create New Test: for an active course only; the questions keep the order they were given in. */
export async function createTest(deps: Deps, admin: { id: string }, form: TTestForm): Promise<TTestChangeResult> {
  const course = await getCourse(deps, form.courseId);
  if (!course.isActive) throw new AppError('BAD_REQUEST', T.courseNotActive, { fields: { courseId: T.courseNotActive } });
  const testId = await deps.db.transaction((tx) =>
    insertTest(tx, { courseId: course.id, title: form.title, passMark: form.passMark }, form.questions),
  );
  deps.logger.info({ testId, courseId: course.id, by: admin.id, questions: form.questions.length }, 'test created');
  return { message: T.created, test: await adminTest(deps, testId) };
}

/** All Created Tests, with their questions and answers, newest first. */
export async function listTests(deps: Deps): Promise<TAdminTest[]> {
  return (await findAllTests(deps.db, { publishedOnly: false })).map(toAdminTest);
}

/** Published tests (the administrators' read-only list). */
export async function listPublishedTests(deps: Deps): Promise<TAdminTest[]> {
  return (await findAllTests(deps.db, { publishedOnly: true })).map(toAdminTest);
}

/** Publish or unpublish; asking for the state a test is already in changes nothing and says so the same way. */
async function changePublished(deps: Deps, admin: { id: string }, testId: string, isPublished: boolean): Promise<TTestChangeResult> {
  if (!(await setPublished(deps.db, testId, isPublished))) throw notFound(T.notFound);
  deps.logger.info({ testId, by: admin.id, isPublished }, 'test publish status changed');
  return { message: isPublished ? T.published : T.unpublished, test: await adminTest(deps, testId) };
}

export const publishTest = (deps: Deps, admin: { id: string }, testId: string) => changePublished(deps, admin, testId, true);
export const unpublishTest = (deps: Deps, admin: { id: string }, testId: string) => changePublished(deps, admin, testId, false);

// ---------------------------------------------------------------------------------------------
// Learners

/** The test opens to a learner whose enrolment is approved and who submitted the course's training. */
async function requireTestAccess(deps: Deps, user: TSessionUser, courseId: string): Promise<void> {
  if (user.role !== 'learner') throw new AppError('FORBIDDEN', T.learnersOnly);
  const enrolment = await findApprovedEnrolment(deps, user.id, courseId);
  if (!enrolment) throw new AppError('FORBIDDEN', T.notEnrolled);
  if (!enrolment.trainingSubmittedAt) throw new AppError('FORBIDDEN', T.trainingFirst);
}

/**
 * /testPage/{courseId}: the course's published test without its answers, and the attempt the
 * server starts now (or the one already open, whose clock keeps running).
 */
export async function openTest(deps: Deps, learner: TSessionUser, courseId: string): Promise<TTestSession> {
  await requireTestAccess(deps, learner, courseId);
  const test = await findPublishedOfCourse(deps.db, courseId);
  if (!test) throw notFound(T.noneForCourse);
  const attempt = await openAttempt(deps.db, { userId: learner.id, testId: test.id, courseId });
  return {
    test: {
      id: test.id,
      course: { id: test.course.id, title: test.course.title },
      title: test.title,
      passMark: test.passMark,
      // Built field by field: the answer key never enters a learner's payload.
      questions: test.questions.map((question) => ({ id: question.id, questionText: question.questionText, options: question.options })),
    },
    attempt: { id: attempt.id, startedAt: attempt.startedAt.toISOString() },
  };
}

/** Every question answered once, with one of its options; the first problem is refused, naming the question. */
function checkAnswers(test: TTestWithQuestions, answers: TTestSubmission['answers']): Map<string, string> {
  const questions = new Map(test.questions.map((question) => [question.id, question]));
  const given = new Map<string, string>();
  for (const answer of answers) {
    const question = questions.get(answer.questionId);
    if (!question) throw new AppError('BAD_REQUEST', T.unknownQuestion, { fields: { [`answers.${answer.questionId}`]: T.unknownQuestion } });
    if (given.has(question.id)) {
      const message = T.answeredTwice(question.position);
      throw new AppError('BAD_REQUEST', message, { fields: { [`answers.${question.id}`]: message } });
    }
    given.set(question.id, answer.selectedAnswer.trim());
  }
  for (const question of test.questions) {
    const selected = given.get(question.id);
    const problem = selected === undefined ? T.unanswered(question.position) : !question.options.includes(selected) ? T.notAnOption(question.position) : null;
    if (problem) throw new AppError('BAD_REQUEST', problem, { fields: { [`answers.${question.id}`]: problem } });
  }
  return given;
}

/** MTA/{year}/{serial of six digits or more}. */
export function certificateNumber(issuedAt: Date, serial: number): string {
  return `MTA/${issuedAt.getUTCFullYear()}/${String(serial).padStart(6, '0')}`;
}

/** Inside the passing attempt's transaction: the learner's certificate for the course, the first pass's if there is one. */
async function issueCertificate(tx: Executor, attempt: { id: string; userId: string; courseId: string }): Promise<TCertificateRow> {
  const existing = await findCertificate(tx, attempt.userId, attempt.courseId);
  if (existing) return existing;
  const serial = await nextCertificateSerial(tx);
  const created = await insertCertificate(tx, {
    userId: attempt.userId,
    courseId: attempt.courseId,
    attemptId: attempt.id,
    number: certificateNumber(new Date(), serial),
    verificationCode: newVerificationCode(),
  });
  // Another attempt at the course passed at the same moment and its certificate stands.
  return created ?? (await findCertificate(tx, attempt.userId, attempt.courseId))!;
}

/**
 * Scores the learner's open attempt. The score, the percentage and the time are the server's own
 * (whatever the client sent); the attempt is locked, so two submissions of it make one, and the
 * second is refused. A pass issues the course's certificate in the same transaction.
 */
export async function submitTest(
  deps: Deps,
  learner: TSessionUser,
  submission: TTestSubmission & { courseId?: string | undefined },
): Promise<TTestResult> {
  const test = await findTestById(deps.db, submission.testId);
  if (!test) throw notFound(T.notFound);
  if (submission.courseId !== undefined && submission.courseId !== test.courseId) {
    throw new AppError('BAD_REQUEST', T.courseMismatch, { fields: { courseId: T.courseMismatch } });
  }
  await requireTestAccess(deps, learner, test.courseId);
  if (!test.isPublished) throw notFound(T.noneForCourse);
  const given = checkAnswers(test, submission.answers);

  const totalQuestions = test.questions.length;
  const score = test.questions.filter((question) => given.get(question.id) === question.correctAnswer).length;
  const percentage = Math.round((score / totalQuestions) * 10_000) / 100;
  // Compared in whole numbers, so no rounding can turn a fail into a pass.
  const passed = score * 100 >= test.passMark * totalQuestions;

  const { attempt, certificate, renderJob } = await deps.db.transaction(async (tx) => {
    const open = await lockOpenAttempt(tx, learner.id, test.id);
    const submitted = open && (await completeAttempt(tx, open.id, { score, totalQuestions, percentage, passed }));
    if (!submitted) throw new AppError('CONFLICT', T.notOpen);
    await insertAnswers(
      tx,
      submitted.id,
      test.questions.map((question) => ({ questionId: question.id, selectedAnswer: given.get(question.id)! })),
    );
    if (!passed) return { attempt: submitted, certificate: null, renderJob: null };
    const issued = await issueCertificate(tx, submitted);
    // Its PDF is rendered by the worker; the intent commits with the pass (keyed on the certificate).
    return { attempt: submitted, certificate: issued, renderJob: await queueCertificateRender(tx, issued.id) };
  });
  if (renderJob) await deps.jobs.dispatch([renderJob]);
  deps.logger.info({ attemptId: attempt.id, userId: learner.id, testId: test.id, percentage, passed }, 'test submitted');
  return {
    message: T.scored(score, totalQuestions, percentage, passed),
    attemptId: attempt.id,
    testId: test.id,
    courseId: test.courseId,
    score,
    totalQuestions,
    percentage,
    passMark: test.passMark,
    passed,
    timeTakenSeconds: attempt.timeTakenSeconds ?? 0,
    startedAt: attempt.startedAt.toISOString(),
    submittedAt: attempt.submittedAt!.toISOString(),
    answers: test.questions.map((question) => ({ questionId: question.id, selectedAnswer: given.get(question.id)! })),
    certificate: certificate && {
      id: certificate.id,
      number: certificate.number,
      status: certificate.status,
      issuedAt: certificate.issuedAt.toISOString(),
      pdfUrl: certificatePdfUrlOf(certificate),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Results

/** Rows of submitted attempts with their answers beside the correct ones. */
async function withAnswers(deps: Deps, rows: TResultRow[]): Promise<TResultItem[]> {
  const answers = new Map<string, TResultAnswerRow[]>();
  for (const answer of await findAnswersOf(
    deps.db,
    rows.map((row) => row.id),
  )) {
    const list = answers.get(answer.attemptId);
    if (list) list.push(answer);
    else answers.set(answer.attemptId, [answer]);
  }
  return rows.map((row) => ({
    id: row.id,
    user: { id: row.userId, name: personName(row), email: row.email },
    course: { id: row.courseId, title: row.courseTitle },
    test: { id: row.testId, title: row.testTitle, passMark: row.passMark },
    score: row.score ?? 0,
    totalQuestions: row.totalQuestions ?? 0,
    percentage: row.percentage ?? 0,
    timeTakenSeconds: row.timeTakenSeconds ?? 0,
    startedAt: row.startedAt.toISOString(),
    submittedAt: row.submittedAt!.toISOString(),
    passed: row.passed ?? false,
    certificate: row.certificate ? toAdminCertificate(row.certificate) : null,
    answers: (answers.get(row.id) ?? []).map(({ attemptId: _attemptId, ...answer }) => ({
      ...answer,
      isCorrect: answer.selectedAnswer === answer.correctAnswer,
    })),
  }));
}

/** Test Results: submitted attempts searched over learner name, e-mail and course title, newest first. */
export async function searchResults(deps: Deps, query: TResultsQuery): Promise<TResultsPage> {
  const search = query.search?.trim() ?? '';
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? RESULTS_PAGE_DEFAULT_SIZE;
  const window = { limit: pageSize, offset: (page - 1) * pageSize };
  // Counted exactly up to the bound (or past this page, when it lies further); beyond, a lower bound.
  const countUpTo = Math.max(RESULTS_COUNT_BOUND, window.offset + window.limit);
  const { rows, total, totalIsEstimate } = await searchResultRows(deps.db, { search, ...window, countUpTo });
  return { items: await withAnswers(deps, rows), total, page, pageSize, ...(totalIsEstimate ? { totalIsEstimate } : {}) };
}

/** Every submitted attempt, searched like the pages, a batch at a time (the spec's whole list). */
export async function allResults(deps: Deps, query: { search?: string | undefined }): Promise<TWholeList<TResultItem>> {
  const search = query.search?.trim() ?? '';
  const { total } = await searchResultRows(deps.db, { search, limit: 0, offset: 0 });
  const batches = inBatches(async (limit, offset) => withAnswers(deps, (await searchResultRows(deps.db, { search, limit, offset })).rows));
  return { total, batches };
}

// ---------------------------------------------------------------------------------------------
// Figures

/** The overview's test figures: published tests, attempts submitted since `since`, and each course's pass rate. */
export async function testFigures(deps: Pick<AppDeps, 'db'>, since: Date): Promise<TTestFigures> {
  const [publishedTests, attemptsSince, courses] = await Promise.all([
    countPublishedTests(deps.db),
    countSubmittedSince(deps.db, since),
    countAttemptsByCourse(deps.db),
  ]);
  return {
    publishedTests,
    attemptsSince,
    passRates: courses.map((course) => ({
      courseId: course.courseId,
      courseTitle: course.courseTitle,
      attempts: course.attempts,
      passed: course.passed,
      // Whole percent, rounded down: a course is never shown doing better than it does.
      passRate: Math.floor((course.passed * 100) / course.attempts),
    })),
  };
}

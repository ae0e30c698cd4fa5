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
  type TTestPolicyRequest,
  type TTestResult,
  type TGrantAttemptsResult,
  type TTestSession,
  type TTestStatus,
  type TTestSubmission,
} from '../../../shared/schemas/tests.ts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit, recordDownload } from '../audit/audit.service.ts';
import { inBatches, type TWholeList } from '../../lib/whole-list.ts';
import { issueCertificate } from '../certificates/certificate-issuance.service.ts';
import { toAdminCertificate } from '../certificates/certificates.service.ts';
import { getCourse } from '../courses/catalogue.service.ts';
import { testRequiresApprovedProfile } from '../courses/course-certificate.service.ts';
import {
  endTrainingRound,
  findApprovedEnrolment,
  grantExtraAttempts,
  lockApprovedEnrolment,
  openRoundByGrant,
  type TApprovedEnrolment,
} from '../enrolments/enrolments.service.ts';
import { certificateHolder } from '../profiles/profiles.service.ts';
import { resetWatching } from '../training/training.service.ts';
import { revokeStreamAccess } from '../training/stream.service.ts';
import { drawAttempt, questionsOfAttempt } from './attempt-draw.ts';
import { nextAttemptMessage, standingMessage, standingOf, type TStanding } from './attempt-policy.ts';
import {
  completeAttempt,
  countAttemptsByCourse,
  countPublishedTests,
  countSubmittedSince,
  findAllTests,
  findAnswersOf,
  findAttemptFacts,
  findAttemptsOfLearner,
  findQuestionsByIds,
  findOpenAttempt,
  findPublishedOfCourse,
  findTestById,
  insertAnswers,
  insertTest,
  lockOpenAttempt,
  startAttempt,
  RESULTS_COUNT_BOUND,
  searchResults as searchResultRows,
  setAttemptsPolicy,
  setPublished,
  lockPublishedState,
  type TResultAnswerRow,
  type TAttemptRow,
  type TResultRow,
  type TTestWithQuestions,
} from './tests.repository.ts';

const T = MESSAGES.tests;
type Deps = Pick<AppDeps, 'db' | 'jwtSecret' | 'logger' | 'jobs' | 'accessGrants'>;

function toAdminTest(test: TTestWithQuestions): TAdminTest {
  return {
    id: test.id,
    course: test.course,
    title: test.title,
    passMark: test.passMark,
    isPublished: test.isPublished,
    createdAt: test.createdAt.toISOString(),
    questionsPerAttempt: test.questionsPerAttempt,
    attemptsAllowed: test.attemptsAllowed,
    waitMinutes: test.waitMinutes,
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

/** Asking for every question of the bank is asking for all: the bank may grow later. */
const drawnOf = (questionsPerAttempt: number | null, bankSize: number) =>
  questionsPerAttempt !== null && questionsPerAttempt < bankSize ? questionsPerAttempt : null;

/** Create New Test: for an active course only; the questions keep the order they were given in. */
export async function createTest(deps: Deps, actor: TStaffActor, form: TTestForm): Promise<TTestChangeResult> {
  const course = await getCourse(deps, form.courseId);
  if (!course.isActive) throw new AppError('BAD_REQUEST', T.courseNotActive, { fields: { courseId: T.courseNotActive } });
  const values = {
    courseId: course.id,
    title: form.title,
    passMark: form.passMark,
    questionsPerAttempt: drawnOf(form.questionsPerAttempt, form.questions.length),
    attemptsAllowed: form.attemptsAllowed,
    waitMinutes: form.waitMinutes,
  };
  const testId = await deps.db.transaction(async (tx) => {
    const id = await insertTest(tx, values, form.questions);
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'test.create',
      subjectType: 'test',
      subjectId: id,
      before: null,
      after: { ...values, questions: form.questions.length },
    });
    return id;
  });
  deps.logger.info({ testId, courseId: course.id, by: actor.id, questions: form.questions.length }, 'test created');
  return { message: T.created, test: await adminTest(deps, testId) };
}

/**
 * An existing test's attempts policy, checked as Create New Test checks it (the questions per
 * attempt against the test's bank). Attempts started from now on follow it: an open attempt keeps
 * the questions it drew, and a learner's standing (attempts left, the wait) is read with the new
 * figures at their next look.
 */
export async function updateTestPolicy(deps: Deps, actor: TStaffActor, input: TTestPolicyRequest): Promise<TTestChangeResult> {
  const test = await findTestById(deps.db, input.testId);
  if (!test) throw notFound(T.notFound);
  const bankSize = test.questions.length;
  if (input.questionsPerAttempt !== null && input.questionsPerAttempt > bankSize) {
    const message = T.questionsPerAttemptTooMany(bankSize);
    throw new AppError('BAD_REQUEST', message, { fields: { questionsPerAttempt: message } });
  }
  const policy = {
    questionsPerAttempt: drawnOf(input.questionsPerAttempt, bankSize),
    attemptsAllowed: input.attemptsAllowed,
    waitMinutes: input.waitMinutes,
  };
  await deps.db.transaction(async (tx) => {
    if (!(await setAttemptsPolicy(tx, test.id, policy))) throw notFound(T.notFound);
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'test.policy',
      subjectType: 'test',
      subjectId: test.id,
      before: { questionsPerAttempt: test.questionsPerAttempt, attemptsAllowed: test.attemptsAllowed, waitMinutes: test.waitMinutes },
      after: policy,
    });
  });
  deps.logger.info({ testId: test.id, by: actor.id, ...policy }, 'test attempts policy changed');
  return { message: T.policySaved, test: await adminTest(deps, test.id) };
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
async function changePublished(deps: Deps, actor: TStaffActor, testId: string, isPublished: boolean): Promise<TTestChangeResult> {
  await deps.db.transaction(async (tx) => {
    const was = await lockPublishedState(tx, testId);
    if (was === undefined || !(await setPublished(tx, testId, isPublished))) throw notFound(T.notFound);
    // Asked for the state it is already in: nothing changed, nothing to record.
    if (was === isPublished) return;
    await recordAudit(tx, actorOfStaff(actor), {
      action: isPublished ? 'test.publish' : 'test.unpublish',
      subjectType: 'test',
      subjectId: testId,
      before: { isPublished: was },
      after: { isPublished },
    });
  });
  deps.logger.info({ testId, by: actor.id, isPublished }, 'test publish status changed');
  return { message: isPublished ? T.published : T.unpublished, test: await adminTest(deps, testId) };
}

export const publishTest = (deps: Deps, actor: TStaffActor, testId: string) => changePublished(deps, actor, testId, true);
export const unpublishTest = (deps: Deps, actor: TStaffActor, testId: string) => changePublished(deps, actor, testId, false);

// ---------------------------------------------------------------------------------------------
// Learners

function requireLearner(user: TSessionUser): void {
  if (user.role !== 'learner') throw new AppError('FORBIDDEN', T.learnersOnly);
}

/** What the policy needs, read inside the caller's transaction (or not, for a look). */
async function standingFacts(
  db: Executor,
  userId: string,
  courseId: string,
  test: TTestWithQuestions | undefined,
  enrolment: TApprovedEnrolment,
  now: Date,
): Promise<{ standing: TStanding; open: TAttemptRow | undefined; last: TAttemptRow | undefined }> {
  const [facts, open] = await Promise.all([
    findAttemptFacts(db, userId, courseId, enrolment.trainingSubmittedAt),
    test ? findOpenAttempt(db, userId, test.id) : Promise.resolve(undefined),
  ]);
  const standing = standingOf(
    {
      test: test ? { attemptsAllowed: test.attemptsAllowed, waitMinutes: test.waitMinutes } : null,
      trainingSubmittedAt: enrolment.trainingSubmittedAt,
      extraAttempts: enrolment.extraAttempts,
      usedInRound: facts.usedInRound,
      submittedCount: facts.submittedCount,
      lastSubmittedAt: facts.last?.submittedAt ?? null,
      passed: facts.passed,
      hasOpenAttempt: open !== undefined,
    },
    now,
  );
  return { standing, open, last: facts.last };
}

/**
 * What keeps the course's test closed to the learner besides the attempts: a course that asks for
 * a complete, approved seafarer profile (the certificate prints its INDOS number, date of birth
 * and passport) opens its test only to a learner who has one.
 */
async function testBlock(db: Executor, userId: string, courseId: string): Promise<TTestStatus['blocked']> {
  if (!(await testRequiresApprovedProfile(db, courseId))) return undefined;
  if ((await certificateHolder(db, userId))?.profileApproved) return undefined;
  return { reason: 'profileRequired', message: MESSAGES.courseCertificate.profileRequired };
}

/** A new attempt may not start: the refusal, in the catalogue's words, with the status that fits. */
function refusal(standing: TStanding, now: Date): AppError {
  const message = standingMessage(standing, now);
  switch (standing.state) {
    case 'noTest':
      return notFound(message);
    case 'passed':
      return new AppError('CONFLICT', message);
    case 'waiting':
      return new AppError('TOO_MANY_REQUESTS', message, {
        retryAfterSeconds: Math.max(1, Math.ceil((standing.nextAttemptAt!.getTime() - now.getTime()) / 1000)),
      });
    default:
      return new AppError('FORBIDDEN', message);
  }
}

/**
 * Where the learner stands with the course's test (the course home and the test page, before an
 * attempt starts): what is possible, attempts left, when the next one opens, the last result.
 */
export async function testStatus(deps: Deps, learner: TSessionUser, courseId: string): Promise<TTestStatus> {
  requireLearner(learner);
  const enrolment = await findApprovedEnrolment(deps, learner.id, courseId);
  if (!enrolment) throw new AppError('FORBIDDEN', T.notEnrolled);
  const test = await findPublishedOfCourse(deps.db, courseId);
  const now = new Date();
  const { standing, open, last } = await standingFacts(deps.db, learner.id, courseId, test, enrolment, now);
  // Said before the test opens (training, waiting), so the learner can put the profile right meanwhile.
  const blocked = standing.state === 'passed' || standing.state === 'noTest' ? undefined : await testBlock(deps.db, learner.id, courseId);
  return {
    courseId,
    state: standing.state,
    message: standingMessage(standing, now),
    test: test
      ? {
          id: test.id,
          title: test.title,
          passMark: test.passMark,
          questionCount: open ? questionsOfAttempt(open.questions, test.questions).length : (test.questionsPerAttempt ?? test.questions.length),
          waitMinutes: test.waitMinutes,
        }
      : null,
    attemptsAllowed: standing.attemptsAllowed,
    attemptsUsed: standing.attemptsUsed,
    attemptsLeft: standing.attemptsLeft,
    nextAttemptAt: standing.nextAttemptAt?.toISOString() ?? null,
    lastResult:
      last && last.submittedAt
        ? {
            score: last.score ?? 0,
            totalQuestions: last.totalQuestions ?? 0,
            percentage: last.percentage ?? 0,
            passed: last.passed ?? false,
            submittedAt: last.submittedAt.toISOString(),
          }
        : null,
    ...(blocked ? { blocked } : {}),
  };
}

/**
 * /testPage/{courseId}: the learner's attempt at the course's published test, without its
 * answers. The attempt already open is handed back as it was drawn (its clock keeps running);
 * otherwise a new one starts when the policy allows: it draws its questions from the bank and
 * orders them and their options anew, and keeps them, so its submission is scored on exactly
 * those. The enrolment is locked meanwhile: openings at once cannot start more than are left.
 * A course that requires an approved seafarer profile hands out no attempt, new or open, until
 * the learner has one.
 */
export async function openTest(deps: Deps, learner: TSessionUser, courseId: string): Promise<TTestSession> {
  requireLearner(learner);
  const test = await findPublishedOfCourse(deps.db, courseId);
  const now = new Date();
  const { attempt, standing } = await deps.db.transaction(async (tx) => {
    const enrolment = await lockApprovedEnrolment(tx, learner.id, courseId);
    if (!enrolment) throw new AppError('FORBIDDEN', T.notEnrolled);
    const found = await standingFacts(tx, learner.id, courseId, test, enrolment, now);
    if (found.open || found.standing.state === 'open') {
      const blocked = await testBlock(tx, learner.id, courseId);
      if (blocked) throw new AppError('FORBIDDEN', blocked.message);
    }
    if (found.open) return { attempt: found.open, standing: found.standing };
    if (found.standing.state !== 'open') throw refusal(found.standing, now);
    const questions = drawAttempt(test!.questions, test!.questionsPerAttempt);
    const started = await startAttempt(tx, { userId: learner.id, testId: test!.id, courseId, startedAt: now, questions });
    return { attempt: started, standing: { ...found.standing, attemptsUsed: found.standing.attemptsUsed + 1 } };
  });
  deps.logger.info({ attemptId: attempt.id, userId: learner.id, testId: test!.id }, 'test attempt opened');
  return {
    test: {
      id: test!.id,
      course: { id: test!.course.id, title: test!.course.title },
      title: test!.title,
      passMark: test!.passMark,
      waitMinutes: test!.waitMinutes,
      // Built field by field: the answer key never enters a learner's payload.
      questions: questionsOfAttempt(attempt.questions, test!.questions).map((question) => ({
        id: question.id,
        questionText: question.questionText,
        options: question.shownOptions,
      })),
    },
    attempt: {
      id: attempt.id,
      startedAt: attempt.startedAt.toISOString(),
      number: Math.max(1, standing.attemptsUsed),
      attemptsAllowed: standing.attemptsAllowed,
    },
  };
}

type TAskedQuestion = ReturnType<typeof questionsOfAttempt<TTestWithQuestions['questions'][number]>>[number];

/**
 * Every question the attempt asked answered once, with one of its options; the first problem is
 * refused, naming the question by its number in the attempt. An answer to a question the attempt
 * did not ask is refused: it scores nothing and would only probe the bank.
 */
function checkAnswers(asked: TAskedQuestion[], answers: TTestSubmission['answers']): Map<string, string> {
  const numbers = new Map(asked.map((question, index) => [question.id, index + 1]));
  const given = new Map<string, string>();
  for (const answer of answers) {
    const number = numbers.get(answer.questionId);
    if (number === undefined) throw new AppError('BAD_REQUEST', T.notDrawn, { fields: { [`answers.${answer.questionId}`]: T.notDrawn } });
    if (given.has(answer.questionId)) {
      const message = T.answeredTwice(number);
      throw new AppError('BAD_REQUEST', message, { fields: { [`answers.${answer.questionId}`]: message } });
    }
    given.set(answer.questionId, answer.selectedAnswer.trim());
  }
  asked.forEach((question, index) => {
    const selected = given.get(question.id);
    const problem = selected === undefined ? T.unanswered(index + 1) : !question.options.includes(selected) ? T.notAnOption(index + 1) : null;
    if (problem) throw new AppError('BAD_REQUEST', problem, { fields: { [`answers.${question.id}`]: problem } });
  });
  return given;
}

/**
 * Scores the learner's open attempt on the questions it drew. The score, the percentage and the
 * time are the server's own (whatever the client sent); the attempt is locked, so two submissions
 * of it make one, and the second is refused. A pass issues the course's certificate in the same
 * transaction; the round's last failed attempt ends the round there too: the training must be
 * watched and submitted again (its watching starts from nothing) or an administrator grant more.
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
  requireLearner(learner);
  const approved = await findApprovedEnrolment(deps, learner.id, test.courseId);
  if (!approved) throw new AppError('FORBIDDEN', T.notEnrolled);
  if (!approved.trainingSubmittedAt) throw new AppError('FORBIDDEN', T.trainingFirst);
  if (!test.isPublished) throw notFound(T.noneForCourse);
  const now = new Date();

  const outcome = await deps.db.transaction(async (tx) => {
    const enrolment = await lockApprovedEnrolment(tx, learner.id, test.courseId);
    if (!enrolment) throw new AppError('FORBIDDEN', T.notEnrolled);
    const open = await lockOpenAttempt(tx, learner.id, test.id);
    if (!open) throw new AppError('CONFLICT', T.notOpen);
    const asked = questionsOfAttempt(open.questions, test.questions);
    const given = checkAnswers(asked, submission.answers);

    const totalQuestions = asked.length;
    const wrong = asked.filter((question) => given.get(question.id) !== question.correctAnswer);
    const score = totalQuestions - wrong.length;
    const percentage = Math.round((score / totalQuestions) * 10_000) / 100;
    // Compared in whole numbers, so no rounding can turn a fail into a pass.
    const passed = score * 100 >= test.passMark * totalQuestions;

    const submitted = await completeAttempt(tx, open.id, { score, totalQuestions, percentage, passed }, now);
    if (!submitted) throw new AppError('CONFLICT', T.notOpen);
    const answers = asked.map((question) => ({ questionId: question.id, selectedAnswer: given.get(question.id)! }));
    await insertAnswers(tx, submitted.id, answers);
    const common = { attempt: submitted, answers, score, totalQuestions, percentage, passed, wrong };
    if (passed) {
      // Its PDF is rendered by the worker; the intent commits with the pass (keyed on the certificate).
      const { certificate, renderJob } = await issueCertificate(tx, { attemptId: submitted.id, userId: submitted.userId, courseId: submitted.courseId });
      return { ...common, certificate, renderJob, standing: null };
    }
    const { standing } = await standingFacts(tx, learner.id, test.courseId, test, enrolment, now);
    if (standing.state === 'exhausted') {
      await endTrainingRound(tx, enrolment.id);
      await resetWatching(tx, learner.id, test.courseId);
    }
    return { ...common, certificate: null, renderJob: null, standing };
  });
  // The training's watching started again: its later parts are locked again, at once.
  if (outcome.standing?.state === 'exhausted') await revokeStreamAccess(deps, { userId: learner.id });
  if (outcome.renderJob) await deps.jobs.dispatch([outcome.renderJob]);
  const { attempt, score, totalQuestions, percentage, passed, certificate, standing } = outcome;
  deps.logger.info(
    { attemptId: attempt.id, userId: learner.id, testId: test.id, percentage, passed, attemptsLeft: standing?.attemptsLeft ?? null },
    standing?.state === 'exhausted' ? 'test submitted; the round of attempts ended' : 'test submitted',
  );

  let message = T.scored(score, totalQuestions, percentage, passed);
  if (standing?.state === 'exhausted') message += ` ${T.attemptsUsed(standing.attemptsAllowed)}`;
  else if (standing) {
    message += ` ${T.attemptsLeft(standing.attemptsLeft)}`;
    if (standing.nextAttemptAt) message += ` ${nextAttemptMessage(standing.nextAttemptAt, now)}`;
  }
  return {
    message,
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
    answers: outcome.answers,
    certificate,
    attemptsLeft: standing?.attemptsLeft ?? 0,
    nextAttemptAt: standing?.nextAttemptAt?.toISOString() ?? null,
    // Which answers were wrong is told only after a pass: after a fail it would be the key.
    wrongQuestionIds: passed ? outcome.wrong.map((question) => question.id) : null,
  };
}

/**
 * An administrator grants a learner more attempts at a course's test. In a round, they add to
 * it; after a round ended (its last attempt failed), they open a round of just these attempts
 * without the training being watched again. Nothing to grant before a first round or after a pass.
 */
export async function grantAttempts(
  deps: Deps,
  actor: TStaffActor,
  input: { userId: string; courseId: string; attempts: number },
): Promise<TGrantAttemptsResult> {
  const test = await findPublishedOfCourse(deps.db, input.courseId);
  if (!test) throw notFound(T.noneForCourse);
  const now = new Date();
  const standing = await deps.db.transaction(async (tx) => {
    const enrolment = await lockApprovedEnrolment(tx, input.userId, input.courseId);
    if (!enrolment) throw notFound(T.learnerNotEnrolled);
    const before = await standingFacts(tx, input.userId, input.courseId, test, enrolment, now);
    if (before.standing.state === 'passed') throw new AppError('CONFLICT', T.grantAfterPass);
    if (before.standing.state === 'training') throw new AppError('CONFLICT', T.grantBeforeTraining);
    if (enrolment.trainingSubmittedAt) await grantExtraAttempts(tx, enrolment.id, input.attempts);
    else await openRoundByGrant(tx, enrolment.id, now, input.attempts - test.attemptsAllowed);
    const after = await lockApprovedEnrolment(tx, input.userId, input.courseId);
    const granted = (await standingFacts(tx, input.userId, input.courseId, test, after!, now)).standing;
    await recordAudit(tx, actorOfStaff(actor), {
      action: 'test.grant-attempts',
      subjectType: 'enrolment',
      subjectId: enrolment.id,
      learnerId: input.userId,
      before: { courseId: input.courseId, state: before.standing.state, attemptsLeft: before.standing.attemptsLeft },
      after: { courseId: input.courseId, state: granted.state, attemptsLeft: granted.attemptsLeft, granted: input.attempts },
    });
    return granted;
  });
  deps.logger.info({ userId: input.userId, courseId: input.courseId, by: actor.id, attempts: input.attempts }, 'test attempts granted');
  return { message: T.attemptsGranted(input.attempts, standing.attemptsLeft), attemptsLeft: standing.attemptsLeft };
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

export type TAttemptEvidence = {
  startedAt: Date;
  submittedAt: Date | null;
  score: number | null;
  totalQuestions: number | null;
  percentage: number | null;
  passed: boolean | null;
  /** The questions the attempt drew, in the order shown, with the options shown and the answer given. */
  questions: Array<{ questionText: string; options: string[]; selectedAnswer: string | null; correctAnswer: string; correct: boolean }>;
};

/**
 * Every attempt a learner made at a course's test, as kept, for an auditor: when it started and
 * was submitted, its score, and each question drawn with the options shown, the answer given and
 * the right one. Attempts from before attempts kept their draw list their answered questions.
 */
export async function attemptEvidence(deps: Pick<AppDeps, 'db'>, userId: string, courseId: string): Promise<TAttemptEvidence[]> {
  const attempts = await findAttemptsOfLearner(deps.db, userId, courseId);
  const answers = await findAnswersOf(deps.db, attempts.map((attempt) => attempt.id));
  const drawnIds = [...new Set(attempts.flatMap((attempt) => attempt.questions.map((question) => question.questionId)))];
  const questions = new Map((await findQuestionsByIds(deps.db, drawnIds)).map((question) => [question.id, question]));
  return attempts.map((attempt) => {
    const given = answers.filter((answer) => answer.attemptId === attempt.id);
    const asked =
      attempt.questions.length > 0
        ? attempt.questions.flatMap(({ questionId, options }) => {
            const question = questions.get(questionId);
            return question ? [{ questionId, questionText: question.questionText, correctAnswer: question.correctAnswer, options }] : [];
          })
        : given.map((answer) => ({ questionId: answer.questionId, questionText: answer.questionText, correctAnswer: answer.correctAnswer, options: [] as string[] }));
    return {
      startedAt: attempt.startedAt,
      submittedAt: attempt.submittedAt,
      score: attempt.score,
      totalQuestions: attempt.totalQuestions,
      percentage: attempt.percentage,
      passed: attempt.passed,
      questions: asked.map(({ questionId, questionText, correctAnswer, options }) => {
        const selectedAnswer = given.find((answer) => answer.questionId === questionId)?.selectedAnswer ?? null;
        return { questionText, options, selectedAnswer, correctAnswer, correct: selectedAnswer === correctAnswer };
      }),
    };
  });
}

/** A member of staff downloads test results: its audit entry (the filters used, the rows sent) commits before the bytes go out. */
export async function recordResultsDownload(
  deps: Pick<AppDeps, 'db'>,
  actor: TStaffActor,
  download: { action: string; filters: Record<string, unknown>; rows?: number | null },
): Promise<void> {
  await recordDownload(deps.db, actorOfStaff(actor), download);
}

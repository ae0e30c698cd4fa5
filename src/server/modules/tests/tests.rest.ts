import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import {
  answerList,
  selectedAnswerFields,
  ZGrantAttemptsRequest,
  ZResultsQuery,
  ZTestForm,
  type TAdminTest,
  type TResultItem,
  type TTestResult,
  type TTestSession,
} from '../../../shared/schemas/tests.ts';
import { certificateFileName } from '../../../shared/schemas/certificate.ts';
import { requestObject, ZId } from '../../../shared/schemas/common.ts';
import { ATTEMPT_SPEC_NAMES, toSpecFields, withSpecId } from '../../../shared/spec-fields.ts';
import type { AppDeps } from '../../deps.ts';
import { DONE, orEmpty, refusals } from '../../lib/rest-schema.ts';
import { csvStream, type TCsvCell } from '../../lib/csv.ts';
import { staffActor } from '../../lib/session-user.ts';
import { pageSizeFromLimit, REST_PAGE_PARAMS } from '../../lib/paging.ts';
import { asksForAPage, sendWholeList } from '../../lib/whole-list.ts';
import {
  allResults,
  recordResultsDownload,
  createTest,
  grantAttempts,
  listPublishedTests,
  listTests,
  openTest,
  publishTest,
  searchResults,
  submitTest,
  unpublishTest,
} from './tests.service.ts';

const V = MESSAGES.validation;
const ZIdParams = requestObject({ id: ZId });
const ZCourseParams = requestObject({ courseId: ZId });

/** Whole numbers a form may send as the text of a number input. */
const NUMBER_FIELDS = ['passMark', 'questionsPerAttempt', 'attemptsAllowed', 'waitMinutes'] as const;

/**
 * The spec's form may send the pass mark as the text of a number input; the attempts policy
 * (questionsPerAttempt, attemptsAllowed, waitMinutes) is optional and takes its defaults when left out.
 */
const ZSpecTestForm = z.preprocess((body) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields: Record<string, unknown> = { ...body };
  for (const name of NUMBER_FIELDS) {
    const value = fields[name];
    if (typeof value === 'string' && /^\s*\d{1,5}\s*$/.test(value)) fields[name] = Number(value);
    // An emptied "questions per attempt" box means every question.
    else if (name === 'questionsPerAttempt' && typeof value === 'string' && value.trim() === '') fields[name] = null;
  }
  return fields;
}, ZTestForm);

/**
 * POST /submitTest as the spec's client sends it: testId, courseId, answers and a fixed timeTaken.
 * Whatever else comes (timeTaken, a score, a percentage) is dropped: the server measures and scores.
 */
const ZSpecSubmission = z.object(
  {
    testId: ZId,
    courseId: ZId.optional(),
    answers: answerList(z.object(selectedAnswerFields, { error: V.expectedObject })),
  },
  { error: V.expectedObject },
);

const ZResultsQueryString = requestObject({ search: z.string({ error: V.mustBeText('Search') }).optional(), ...REST_PAGE_PARAMS })
  .transform(pageSizeFromLimit)
  .pipe(ZResultsQuery);

const ZResultsExportQuery = requestObject({ search: ZResultsQuery.shape.search });

/** Test Results as a spreadsheet: one row per submitted attempt, its answers in one cell. */
const RESULTS_CSV_HEADER = [
  'Submitted at',
  'Learner',
  'Email',
  'Course',
  'Test',
  'Score',
  'Total questions',
  'Percentage',
  'Result',
  'Time taken (seconds)',
  'Answers (selected / correct)',
];

function resultCells(item: TResultItem): TCsvCell[] {
  return [
    item.submittedAt,
    item.user.name,
    item.user.email,
    item.course.title,
    item.test.title,
    item.score,
    item.totalQuestions,
    item.percentage,
    item.passed ? 'Passed' : 'Failed',
    item.timeTakenSeconds,
    item.answers.map((answer) => `Q${answer.position}: ${answer.selectedAnswer} / ${answer.correctAnswer}`).join('; '),
  ];
}

/** The spec's Test (section 3), with its answers: administrators only. */
function toRestTest(test: TAdminTest) {
  return withSpecId({
    id: test.id,
    courseId: test.course.id,
    courseTitle: test.course.title,
    courseIsActive: test.course.isActive,
    title: test.title,
    passMark: test.passMark,
    isPublished: test.isPublished,
    createdAt: test.createdAt,
    questionsPerAttempt: test.questionsPerAttempt,
    attemptsAllowed: test.attemptsAllowed,
    waitMinutes: test.waitMinutes,
    questions: test.questions.map((question) =>
      withSpecId({
        id: question.id,
        questionText: question.questionText,
        options: question.options,
        correctAnswer: question.correctAnswer,
      }),
    ),
  });
}

/** The spec's Test as a learner receives it: no `correctAnswer`, and the attempt the server started. */
function toRestLearnerTest({ test, attempt }: TTestSession) {
  return withSpecId({
    id: test.id,
    courseId: test.course.id,
    courseTitle: test.course.title,
    title: test.title,
    passMark: test.passMark,
    isPublished: true,
    // This attempt's questions, drawn for it and in its order.
    questions: test.questions.map((question) => withSpecId({ id: question.id, questionText: question.questionText, options: question.options })),
    attemptId: attempt.id,
    startedAt: attempt.startedAt,
    attemptNumber: attempt.number,
    attemptsAllowed: attempt.attemptsAllowed,
    waitMinutes: test.waitMinutes,
  });
}

/** The learner's result: the spec reads `data.percentage`. */
function toRestResult(result: TTestResult) {
  return toSpecFields(ATTEMPT_SPEC_NAMES, {
    id: result.attemptId,
    testId: result.testId,
    courseId: result.courseId,
    score: result.score,
    totalQuestions: result.totalQuestions,
    percentage: result.percentage,
    passMark: result.passMark,
    passed: result.passed,
    timeTakenSeconds: result.timeTakenSeconds,
    startedAt: result.startedAt,
    submittedAt: result.submittedAt,
    answers: result.answers,
    certificate: result.certificate,
    attemptsLeft: result.attemptsLeft,
    nextAttemptAt: result.nextAttemptAt,
    wrongQuestionIds: result.wrongQuestionIds,
    // The spec's Certificate shape, when passed: the PDF's file name, or null while the worker renders it.
    ...(result.passed ? { pdfPath: result.certificate?.pdfUrl ? { filename: certificateFileName(result.certificate.pdfUrl) } : null } : {}),
  });
}

/** The spec's Test submission (section 3), the selected answers beside the correct ones. */
function toRestSubmission(item: TResultItem) {
  return toSpecFields(ATTEMPT_SPEC_NAMES, {
    id: item.id,
    userName: item.user.name,
    userEmail: item.user.email,
    userId: item.user.id,
    courseId: withSpecId({ id: item.course.id, title: item.course.title }),
    testId: withSpecId({ id: item.test.id, title: item.test.title, passMark: item.test.passMark }),
    score: item.score,
    totalQuestions: item.totalQuestions,
    percentage: item.percentage,
    timeTakenSeconds: item.timeTakenSeconds,
    startedAt: item.startedAt,
    submittedAt: item.submittedAt,
    passed: item.passed,
    answers: item.answers.map((answer) => withSpecId({ id: answer.questionId, ...answer })),
  });
}

/** The spec's test calls (section 7, Tests, training and certificates). */
export const testsRest: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (api, { deps }) => {
  api.post('/test', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Create a test for a course (unpublished).', tags: ['Tests'], body: ZSpecTestForm, response: { 201: DONE, ...refusals({ 404: 'No such course.' }) } } }, async (request, reply) => {
    const result = await createTest(deps, staffActor(request.caller, request.ip), request.body);
    return reply.status(201).send({ message: result.message, data: toRestTest(result.test) });
  });

  api.get('/test', { config: { access: 'admin', permission: 'courses.read' }, schema: { summary: 'Every test, with its answers.', tags: ['Tests'] } }, async () => ({ data: (await listTests(deps)).map(toRestTest) }));

  api.get('/test/published', { config: { access: 'admin', permission: 'courses.read' }, schema: { summary: 'The published tests, with their answers.', tags: ['Tests'] } }, async () => ({ data: (await listPublishedTests(deps)).map(toRestTest) }));

  api.post('/test/published/:id', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Publish a test.', tags: ['Tests'], params: ZIdParams, response: { ...refusals({ 404: 'No such test.', 409: 'Already published.' }) } } }, async (request) => {
    const { id } = request.params;
    const result = await publishTest(deps, staffActor(request.caller, request.ip), id);
    return { message: result.message, data: toRestTest(result.test) };
  });

  api.post('/test/unpublished/:id', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Unpublish a test.', tags: ['Tests'], params: ZIdParams, response: { ...refusals({ 404: 'No such test.', 409: 'Not published.' }) } } }, async (request) => {
    const { id } = request.params;
    const result = await unpublishTest(deps, staffActor(request.caller, request.ip), id);
    return { message: result.message, data: toRestTest(result.test) };
  });

  /** The spec reads a list and uses its first item; opening it starts the attempt. */
  api.get('/test/:courseId', { config: { access: 'signed-in' }, schema: { summary: 'Open the course’s test (without answers); this starts the attempt.', tags: ['Tests'], params: ZCourseParams, response: { ...refusals({ 403: 'The training is not submitted, the enrolment is not approved, or the round’s attempts are used.', 404: 'No published test.', 409: 'The test is already passed.', 429: 'The wait after the last attempt has not passed: the message says when the next opens, Retry-After in how many seconds.' }) } } }, async (request) => {
    const { courseId } = request.params;
    return { data: [toRestLearnerTest(await openTest(deps, request.caller, courseId))] };
  });

  api.post('/submitTest', { config: { access: 'signed-in' }, schema: { summary: 'Submit the open attempt’s answers; the server scores and times it.', tags: ['Tests'], body: ZSpecSubmission, response: { 201: DONE, ...refusals({ 400: 'An answer is missing, not an option, or names a question this attempt did not draw.', 403: 'The enrolment is not approved.', 409: 'No open attempt (open the test first), or already submitted.' }) } } }, async (request, reply) => {
    const result = await submitTest(deps, request.caller, request.body);
    return reply.status(201).send({ message: result.message, data: toRestResult(result) });
  });

  api.post('/test/grantAttempts', { config: { access: 'admin', permission: 'courses.edit' }, schema: { summary: 'Grant a learner more attempts at a course’s test (attempts: 1 by default).', tags: ['Tests'], body: orEmpty(ZGrantAttemptsRequest), response: { ...refusals({ 404: 'No published test, or the learner is not enrolled.', 409: 'The learner already passed, or has no attempts to renew.' }) } } }, async (request) => {
    const result = await grantAttempts(deps, staffActor(request.caller, request.ip), request.body);
    return { message: result.message, data: { attemptsLeft: result.attemptsLeft } };
  });

  /** Every submission matching ?search= as a CSV download (Test Results' export), streamed. */
  api.get('/submitTest.csv', { config: { access: 'admin', permission: 'results.read' }, schema: { summary: 'Every submission matching search, as a CSV download (formula-guarded cells).', tags: ['Tests'], querystring: ZResultsExportQuery } }, async (request, reply) => {
    const { search } = request.query;
    const list = await allResults(deps, { search });
    await recordResultsDownload(deps, staffActor(request.caller, request.ip), { action: 'export.results', filters: { search: search ?? null }, rows: list.total });
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="test-results-${day}.csv"`)
      .header('cache-control', 'no-store')
      .header('x-total-count', String(list.total))
      .type('text/csv; charset=utf-8')
      .send(csvStream(RESULTS_CSV_HEADER, list.batches, resultCells));
  });

  /** Submissions, searched and paged with ?search=&page=&pageSize=; the whole list without page parameters. */
  api.get('/submitTest', { config: { access: 'admin', permission: 'results.read' }, schema: { summary: 'Submissions, searched; paged with page and pageSize, the whole list without.', tags: ['Tests'], querystring: ZResultsQueryString } }, async (request, reply) => {
    const query = request.query;
    if (!asksForAPage(request)) {
      return sendWholeList(reply, await allResults(deps, { search: query.search }), toRestSubmission, 'data');
    }
    const page = await searchResults(deps, query);
    return {
      data: page.items.map(toRestSubmission),
      total: page.total,
      page: page.page,
      pageSize: page.pageSize,
      // More match than were counted: `total` is a lower bound (decision 029).
      ...(page.totalIsEstimate ? { totalIsEstimate: true } : {}),
    };
  });
};

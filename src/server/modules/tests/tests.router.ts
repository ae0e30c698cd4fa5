import { z } from 'zod';
import {
  ZAdminTest,
  ZGrantAttemptsRequest,
  ZGrantAttemptsResult,
  ZResultsPage,
  ZResultsQuery,
  ZTestChangeResult,
  ZTestCourseRequest,
  ZTestForm,
  ZTestIdRequest,
  ZTestPolicyRequest,
  ZTestResult,
  ZTestSession,
  ZTestStatus,
  ZTestSubmission,
} from '../../../shared/schemas/tests.ts';
import { authedProcedure, createRouter, staffProcedure } from '../../trpc/init.ts';
import {
  createTest,
  grantAttempts,
  listPublishedTests,
  listTests,
  openTest,
  publishTest,
  searchResults,
  submitTest,
  testStatus,
  unpublishTest,
  updateTestPolicy,
} from './tests.service.ts';

/** Tests, attempts and results. Learners' outputs have no answer key to leak: their schemas have none. */
export const testsRouter = createRouter({
  create: staffProcedure('courses.edit')
    .input(ZTestForm)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => createTest(ctx.deps, ctx.actor, input)),

  /** All Created Tests, with questions and answers. */
  list: staffProcedure('courses.read').output(z.array(ZAdminTest)).query(({ ctx }) => listTests(ctx.deps)),

  published: staffProcedure('courses.read').output(z.array(ZAdminTest)).query(({ ctx }) => listPublishedTests(ctx.deps)),

  publish: staffProcedure('courses.edit')
    .input(ZTestIdRequest)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => publishTest(ctx.deps, ctx.actor, input.testId)),

  unpublish: staffProcedure('courses.edit')
    .input(ZTestIdRequest)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => unpublishTest(ctx.deps, ctx.actor, input.testId)),

  /** An existing test's attempts policy (All Tests, Published Tests); attempts started after it follow it. */
  updatePolicy: staffProcedure('courses.edit')
    .input(ZTestPolicyRequest)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => updateTestPolicy(ctx.deps, ctx.actor, input)),

  /** Test Results: searched server-side, in pages. */
  results: staffProcedure('results.read')
    .input(ZResultsQuery.optional())
    .output(ZResultsPage)
    .query(({ ctx, input }) => searchResults(ctx.deps, input ?? {})),

  /** An administrator grants a learner more attempts at a course's test (Test Results). */
  grantAttempts: staffProcedure('courses.edit')
    .input(ZGrantAttemptsRequest)
    .output(ZGrantAttemptsResult)
    .mutation(({ ctx, input }) => grantAttempts(ctx.deps, ctx.actor, input)),

  /**
   * Where the learner stands with the course's test: attempts left, when the next opens, why it
   * is closed. Starts nothing: the course home and the test page read it before an attempt.
   */
  status: authedProcedure
    .input(ZTestCourseRequest)
    .output(ZTestStatus)
    .query(({ ctx, input }) => testStatus(ctx.deps, ctx.user, input.courseId)),

  /**
   * /testPage/{courseId}: the published test without answers; it starts an attempt (or hands back
   * the open one) when the attempts policy allows, so it is a mutation: nothing fetches it again
   * on its own (a cache's refetch, a prefetch). FORBIDDEN until the enrolment is approved and the
   * training submitted, or when the round's attempts are used; TOO_MANY_REQUESTS during the wait
   * between attempts; CONFLICT after a pass.
   */
  take: authedProcedure
    .input(ZTestCourseRequest)
    .output(ZTestSession)
    .mutation(({ ctx, input }) => openTest(ctx.deps, ctx.user, input.courseId)),

  submit: authedProcedure
    .input(ZTestSubmission)
    .output(ZTestResult)
    .mutation(({ ctx, input }) => submitTest(ctx.deps, ctx.user, input)),
});

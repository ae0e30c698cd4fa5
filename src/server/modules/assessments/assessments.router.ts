import { z } from 'zod';
import {
  ZAdminTest,
  ZResultsPage,
  ZResultsQuery,
  ZTestChangeResult,
  ZTestCourseRequest,
  ZTestForm,
  ZTestIdRequest,
  ZTestResult,
  ZTestSession,
  ZTestSubmission,
} from '../../../shared/schemas/assessment.ts';
import { adminProcedure, authedProcedure, createRouter } from '../../trpc/init.ts';
import {
  createTest,
  listPublishedTests,
  listTests,
  openTest,
  publishTest,
  searchResults,
  submitTest,
  unpublishTest,
} from './assessments.service.ts';

/** Tests, attempts and results. Learners' outputs have no answer key to leak: their schemas have none. */
export const assessmentsRouter = createRouter({
  create: adminProcedure
    .input(ZTestForm)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => createTest(ctx.deps, ctx.user, input)),

  /** All Created Tests, with questions and answers. */
  list: adminProcedure.output(z.array(ZAdminTest)).query(({ ctx }) => listTests(ctx.deps)),

  published: adminProcedure.output(z.array(ZAdminTest)).query(({ ctx }) => listPublishedTests(ctx.deps)),

  publish: adminProcedure
    .input(ZTestIdRequest)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => publishTest(ctx.deps, ctx.user, input.testId)),

  unpublish: adminProcedure
    .input(ZTestIdRequest)
    .output(ZTestChangeResult)
    .mutation(({ ctx, input }) => unpublishTest(ctx.deps, ctx.user, input.testId)),

  /** Test Results: searched server-side, in pages. */
  results: adminProcedure
    .input(ZResultsQuery.optional())
    .output(ZResultsPage)
    .query(({ ctx, input }) => searchResults(ctx.deps, input ?? {})),

  /**
   * /testPage/{courseId}: the published test without answers; opening it starts the attempt (or
   * keeps the open one). FORBIDDEN until the enrolment is approved and the training submitted.
   */
  take: authedProcedure
    .input(ZTestCourseRequest)
    .output(ZTestSession)
    .query(({ ctx, input }) => openTest(ctx.deps, ctx.user, input.courseId)),

  submit: authedProcedure
    .input(ZTestSubmission)
    .output(ZTestResult)
    .mutation(({ ctx, input }) => submitTest(ctx.deps, ctx.user, input)),
});

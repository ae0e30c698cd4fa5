import { z } from 'zod';
import {
  ZCourseHome,
  ZCourseHomeRequest,
  ZDashboardCourse,
  ZEnrolmentDecisionRequest,
  ZEnrolmentDecisionResult,
  ZEnrolmentRequestPage,
  ZEnrolmentRequestQuery,
  ZEnrolRequest,
  ZEnrolResult,
  ZMyEnrolment,
} from '../../../shared/schemas/enrolment.ts';
import { authedProcedure, createRouter, staffProcedure } from '../../trpc/init.ts';
import {
  acceptRequest,
  getCourseHome,
  listDashboard,
  listOwnEnrolments,
  rejectRequest,
  requestEnrolment,
  searchRequests,
} from './enrolments.service.ts';

export const enrolmentsRouter = createRouter({
  /** Active courses with the learner's enrolment in each (the dashboard's Enrollment / Launch). */
  dashboard: authedProcedure.output(z.array(ZDashboardCourse)).query(({ ctx }) => listDashboard(ctx.deps, ctx.user)),

  /** The learner's own enrolments with course and progress (Your Courses, Enrollment Requests). */
  mine: authedProcedure.output(z.array(ZMyEnrolment)).query(({ ctx }) => listOwnEnrolments(ctx.deps, ctx.user)),

  /** The course home (/courses/{id}/content); NOT_FOUND unless the learner's enrolment is approved. */
  courseHome: authedProcedure
    .input(ZCourseHomeRequest)
    .output(ZCourseHome)
    .query(({ ctx, input }) => getCourseHome(ctx.deps, ctx.user, input.courseId)),

  request: authedProcedure
    .input(ZEnrolRequest)
    .output(ZEnrolResult)
    .mutation(({ ctx, input }) => requestEnrolment(ctx.deps, ctx.user, input.courseId)),

  /** Requests for administrators: pending by default, searched server-side, in pages. */
  search: staffProcedure('enrolments.read')
    .input(ZEnrolmentRequestQuery.optional())
    .output(ZEnrolmentRequestPage)
    .query(({ ctx, input }) => searchRequests(ctx.deps, input ?? {})),

  accept: staffProcedure('enrolments.decide')
    .input(ZEnrolmentDecisionRequest)
    .output(ZEnrolmentDecisionResult)
    .mutation(({ ctx, input }) => acceptRequest(ctx.deps, ctx.actor, input.enrolmentId)),

  reject: staffProcedure('enrolments.decide')
    .input(ZEnrolmentDecisionRequest)
    .output(ZEnrolmentDecisionResult)
    .mutation(({ ctx, input }) => rejectRequest(ctx.deps, ctx.actor, input.enrolmentId)),
});

import {
  ZCourse,
  ZCourseIdRequest,
  ZCourseList,
  ZCourseResult,
  ZCourseUpdateRequest,
} from '../../../shared/schemas/course.ts';
import { adminProcedure, createRouter, publicProcedure } from '../../trpc/init.ts';
import { listAllCourses, setCourseActive, updateCourse } from './course-admin.service.ts';
import { getCatalogue, getCourse } from './catalogue.service.ts';

/**
 * Courses. Creating a course, and changing its image, go through the multipart REST routes
 * (POST /api/courses, PUT /api/courses/{id}) so browsers can show upload progress.
 */
export const coursesRouter = createRouter({
  /** The public catalogue: active courses, newest first. */
  catalogue: publicProcedure.output(ZCourseList).query(async ({ ctx }) => (await getCatalogue(ctx.deps)).courses),

  /** Every course, active or not, for the administrators' list. */
  adminList: adminProcedure.output(ZCourseList).query(({ ctx }) => listAllCourses(ctx.deps)),

  adminGet: adminProcedure
    .input(ZCourseIdRequest)
    .output(ZCourse)
    .query(({ ctx, input }) => getCourse(ctx.deps, input.courseId)),

  /** An edit that keeps the current image. */
  update: adminProcedure
    .input(ZCourseUpdateRequest)
    .output(ZCourseResult)
    .mutation(({ ctx, input: { courseId, ...form } }) => updateCourse(ctx.deps, ctx.user, courseId, form)),

  activate: adminProcedure
    .input(ZCourseIdRequest)
    .output(ZCourseResult)
    .mutation(({ ctx, input }) => setCourseActive(ctx.deps, ctx.user, input.courseId, true)),

  deactivate: adminProcedure
    .input(ZCourseIdRequest)
    .output(ZCourseResult)
    .mutation(({ ctx, input }) => setCourseActive(ctx.deps, ctx.user, input.courseId, false)),
});

import { z } from 'zod';
import {
  ZCourse,
  ZCourseCertificateSettings,
  ZCourseCertificateSettingsRequest,
  ZCourseIdRequest,
  ZCourseList,
  ZCourseResult,
  ZCourseUpdateRequest,
} from '../../../shared/schemas/course.ts';
import { createRouter, publicProcedure, staffProcedure } from '../../trpc/init.ts';
import { listAllCourses, setCourseActive, updateCourse } from './course-admin.service.ts';
import { getCatalogue, getCourse } from './catalogue.service.ts';
import { certificateSettings, updateCourseCertificateSettings } from './course-certificate.service.ts';

/**
 * Courses. Creating a course, and changing its image, go through the multipart REST routes
 * (POST /api/courses, PUT /api/courses/{id}) so browsers can show upload progress.
 */
export const coursesRouter = createRouter({
  /** The public catalogue: active courses, newest first. */
  catalogue: publicProcedure.output(ZCourseList).query(async ({ ctx }) => (await getCatalogue(ctx.deps)).courses),

  /** Every course, active or not, for the administrators' list. */
  adminList: staffProcedure('courses.read').output(ZCourseList).query(({ ctx }) => listAllCourses(ctx.deps)),

  adminGet: staffProcedure('courses.read')
    .input(ZCourseIdRequest)
    .output(ZCourse)
    .query(({ ctx, input }) => getCourse(ctx.deps, input.courseId)),

  /** An edit that keeps the current image. */
  update: staffProcedure('courses.edit')
    .input(ZCourseUpdateRequest)
    .output(ZCourseResult)
    .mutation(({ ctx, input: { courseId, ...form } }) => updateCourse(ctx.deps, ctx.actor, courseId, form)),

  activate: staffProcedure('courses.edit')
    .input(ZCourseIdRequest)
    .output(ZCourseResult)
    .mutation(({ ctx, input }) => setCourseActive(ctx.deps, ctx.actor, input.courseId, true)),

  deactivate: staffProcedure('courses.edit')
    .input(ZCourseIdRequest)
    .output(ZCourseResult)
    .mutation(({ ctx, input }) => setCourseActive(ctx.deps, ctx.actor, input.courseId, false)),

  /** The course's certificate settings (code, approval number, validity, refresher, the profile its test needs). */
  certificateSettings: staffProcedure('courses.read')
    .input(ZCourseIdRequest)
    .output(ZCourseCertificateSettings)
    .query(({ ctx, input }) => certificateSettings(ctx.deps, input.courseId)),

  /** Sets them; 404 for an unknown course, 400 for a refresher that is unknown or the course itself. */
  updateCertificateSettings: staffProcedure('courses.edit')
    .input(ZCourseCertificateSettingsRequest)
    .output(z.object({ message: z.string(), settings: ZCourseCertificateSettings }))
    .mutation(({ ctx, input }) => updateCourseCertificateSettings(ctx.deps, ctx.actor, input)),
});

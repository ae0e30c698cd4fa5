import { z } from 'zod';
import { ENROLMENT_SEARCH_MAX_LENGTH, ENROLMENT_STATUSES } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { requestObject, ZId } from './common.ts';
import { ZCourse } from './course.ts';
import { pageFields, pageOf } from './paging.ts';

const V = MESSAGES.validation;

export const ENROLMENT_PAGE_DEFAULT_SIZE = 20;
export const ENROLMENT_PAGE_MAX_SIZE = 100;

export const ZEnrolmentStatus = z.enum(ENROLMENT_STATUSES);

/** enrolments.request and POST /api/userCourses. */
export const ZEnrolRequest = requestObject({ courseId: ZId });

/** A learner's enrolment in one course, without the course. */
export const ZEnrolmentSummary = z.object({
  id: z.string(),
  courseId: z.string(),
  status: ZEnrolmentStatus,
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TEnrolmentSummary = z.infer<typeof ZEnrolmentSummary>;

export const ZEnrolResult = z.object({ message: z.string(), enrolment: ZEnrolmentSummary });
export type TEnrolResult = z.infer<typeof ZEnrolResult>;

/** A share of a course's training the learner has completed. */
export const ZProgress = z.object({
  completedVideos: z.number().int(),
  totalVideos: z.number().int(),
  /** 0 to 100, whole; 0 when the course has no videos yet. */
  percent: z.number().int(),
});
export type TProgress = z.infer<typeof ZProgress>;

/** An active course on the learner's dashboard, with the learner's enrolment in it, if any. */
export const ZDashboardCourse = ZCourse.extend({ enrolment: ZEnrolmentSummary.nullable() });
export type TDashboardCourse = z.infer<typeof ZDashboardCourse>;

/** One of the learner's own enrolments (Your Courses, Enrollment Requests). */
export const ZMyEnrolment = ZEnrolmentSummary.extend({
  /** Whether the course home opens for this learner: approved, whatever the course's state since. */
  hasAccess: z.boolean(),
  course: ZCourse,
  progress: ZProgress,
});
export type TMyEnrolment = z.infer<typeof ZMyEnrolment>;

export const ZTrainingVideo = z.object({
  id: z.string(),
  serial: z.number().int(),
  title: z.string(),
  /** False while the video is still being prepared (or failed); it cannot be played yet. */
  ready: z.boolean(),
  durationSeconds: z.number().nullable(),
  completed: z.boolean(),
  /** Video N+1 stays locked until 1..N are completed. */
  locked: z.boolean(),
});
export type TTrainingVideo = z.infer<typeof ZTrainingVideo>;

/** The course home (/courses/{id}/content) for an approved learner. */
export const ZCourseHome = z.object({
  course: ZCourse,
  enrolment: ZEnrolmentSummary,
  progress: ZProgress,
  /**
   * The course's training parts in order, the set they belong to (what Submit Training names) and
   * when the learner submitted it (null: not in this round); null when none were uploaded yet.
   */
  training: z
    .object({ setId: z.string(), title: z.string(), submittedAt: z.string().nullable(), videos: z.array(ZTrainingVideo) })
    .nullable(),
});
export type TCourseHome = z.infer<typeof ZCourseHome>;

export const ZCourseHomeRequest = requestObject({ courseId: ZId });

/** The administrators' request list: server-side search over learner name, e-mail and course title. */
export const ZEnrolmentRequestQuery = requestObject({
  search: z
    .string({ error: V.mustBeText('Search') })
    .trim()
    .max(ENROLMENT_SEARCH_MAX_LENGTH, MESSAGES.enrolment.searchTooLong)
    .default(''),
  status: ZEnrolmentStatus.default('pending'),
  ...pageFields({ defaultSize: ENROLMENT_PAGE_DEFAULT_SIZE, maxSize: ENROLMENT_PAGE_MAX_SIZE }),
});
export type TEnrolmentRequestQuery = z.input<typeof ZEnrolmentRequestQuery>;

export const ZEnrolmentRequestItem = z.object({
  id: z.string(),
  status: ZEnrolmentStatus,
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  course: z.object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    duration: z.string(),
    price: z.number(),
    category: z.string(),
    isActive: z.boolean(),
  }),
});
export type TEnrolmentRequestItem = z.infer<typeof ZEnrolmentRequestItem>;

export const ZEnrolmentRequestPage = pageOf(ZEnrolmentRequestItem);
export type TEnrolmentRequestPage = z.infer<typeof ZEnrolmentRequestPage>;

/** enrolments.accept / enrolments.reject. */
export const ZEnrolmentDecisionRequest = requestObject({ enrolmentId: ZId });

export const ZEnrolmentDecisionResult = z.object({ message: z.string(), request: ZEnrolmentRequestItem });
export type TEnrolmentDecisionResult = z.infer<typeof ZEnrolmentDecisionResult>;

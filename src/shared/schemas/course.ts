import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { multilineText, plainText, presentText, printedTitle, requestObject, ZId } from './common.ts';

const C = MESSAGES.courses;

export const COURSE_TITLE_MAX_LENGTH = 150;
export const COURSE_DURATION_MAX_LENGTH = 50;
export const COURSE_CATEGORY_MAX_LENGTH = 80;
export const COURSE_DESCRIPTION_MAX_LENGTH = 5000;
export const COURSE_SUBJECT_MAX_LENGTH = 200;
export const COURSE_MAX_SUBJECTS = 50;
export const COURSE_PRICE_MAX = 10_000_000;
/** The largest image an administrator may upload; it is stored resized (COURSE_IMAGE_BOX). */
export const COURSE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The size course images are stored at: the cards show them 160 px high, this is about 2×. */
export const COURSE_IMAGE_BOX = { width: 640, height: 320 } as const;
/** For the file input's `accept`: any image the server can read (the type is checked from the bytes). */
export const COURSE_IMAGE_ACCEPT = 'image/*,.heic,.heif,.avif,.bmp,.tif,.tiff';

const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const price = z
  .number({ error: (issue) => (issue.input === undefined || issue.input === null ? C.priceRequired : C.priceInvalid) })
  .refine(Number.isFinite, C.priceInvalid)
  .min(0, C.priceInvalid)
  .max(COURSE_PRICE_MAX, C.priceTooHigh)
  .refine(hasAtMostTwoDecimals, C.priceInvalid);

const subject = presentText('Subject', C.subjectRequired).pipe(plainText('Subject', COURSE_SUBJECT_MAX_LENGTH));

/** The course form's fields (spec section 5): every one required, at least one subject. */
const courseFields = {
  // The title certificates print (decision 064).
  title: presentText('Title', C.titleRequired).pipe(printedTitle('Title', COURSE_TITLE_MAX_LENGTH)),
  duration: presentText('Duration', C.durationRequired).pipe(plainText('Duration', COURSE_DURATION_MAX_LENGTH)),
  price,
  category: presentText('Category', C.categoryRequired).pipe(plainText('Category', COURSE_CATEGORY_MAX_LENGTH)),
  description: presentText('Description', C.descriptionRequired).pipe(
    multilineText('Description', COURSE_DESCRIPTION_MAX_LENGTH),
  ),
  subjects: z
    .array(subject, { error: C.subjectsRequired })
    .min(1, C.subjectsRequired)
    .max(COURSE_MAX_SUBJECTS, C.tooManySubjects(COURSE_MAX_SUBJECTS)),
};

/** The create and edit form (the image travels beside it, as a file). */
export const ZCourseForm = requestObject(courseFields);
export type TCourseForm = z.output<typeof ZCourseForm>;

/** courses.update: an edit that keeps the current image. */
export const ZCourseUpdateRequest = requestObject({ courseId: ZId, ...courseFields });

export const ZCourseIdRequest = requestObject({ courseId: ZId });

export const ZCourseImage = z.object({
  filename: z.string(),
  /** Public: /api/uploads/courseImg/{filename}. */
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type TCourseImage = z.infer<typeof ZCourseImage>;

/** A course as every screen reads it. Dates are ISO 8601 strings; the price is in rupees. */
export const ZCourse = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  duration: z.string(),
  price: z.number(),
  category: z.string(),
  subjects: z.array(z.string()),
  image: ZCourseImage.nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCourse = z.infer<typeof ZCourse>;

export const ZCourseList = z.array(ZCourse);

export const ZCourseResult = z.object({ message: z.string(), course: ZCourse });
export type TCourseResult = z.infer<typeof ZCourseResult>;

// ---------------------------------------------------------------------------------------------
// A course's certificate settings (administrators; a course without them issues certificates that never expire)

const CC = MESSAGES.courseCertificate;
export const COURSE_VALIDITY_MONTHS_MAX = 120;
export const COURSE_CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{1,19}$/;

/** Empty text means "none". */
const noneIfEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

export const ZCourseCertificateSettings = z.object({
  /** The course's short code, e.g. FPFF (upper case). */
  code: z.string().nullable(),
  approvalNumber: z.string().nullable(),
  /** Months a certificate is valid; null: it does not expire. */
  validityMonths: z.number().int().nullable(),
  /** The course whose certificate renews this one's. */
  refresher: z.object({ id: z.string(), title: z.string() }).nullable(),
  /** The test opens only once the learner's account is approved and the profile holds INDOS, date of birth and passport. */
  testRequiresApprovedProfile: z.boolean(),
});
export type TCourseCertificateSettings = z.infer<typeof ZCourseCertificateSettings>;

export const ZCourseCertificateSettingsRequest = requestObject({
  courseId: ZId,
  code: z.preprocess(
    noneIfEmpty,
    z.string({ error: CC.codeFormat }).trim().toUpperCase().regex(COURSE_CODE_PATTERN, CC.codeFormat).nullable(),
  ),
  approvalNumber: z.preprocess(noneIfEmpty, plainText('Approval number', 80).nullable()),
  validityMonths: z.preprocess(
    noneIfEmpty,
    z.number({ error: CC.validityRange }).int(CC.validityRange).min(1, CC.validityRange).max(COURSE_VALIDITY_MONTHS_MAX, CC.validityRange).nullable(),
  ),
  refresherCourseId: z.preprocess(noneIfEmpty, ZId.nullable()),
  testRequiresApprovedProfile: z.boolean(),
}).refine((input) => input.refresherCourseId !== input.courseId, { message: CC.refresherSelf, path: ['refresherCourseId'] });
export type TCourseCertificateSettingsRequest = z.output<typeof ZCourseCertificateSettingsRequest>;

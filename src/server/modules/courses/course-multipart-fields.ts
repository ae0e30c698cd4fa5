import { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { requestObject } from '../../../shared/schemas/common.ts';
import { ZCourseForm } from '../../../shared/schemas/course.ts';
import { COURSE_SPEC_NAMES } from '../../../shared/spec-fields.ts';

const C = MESSAGES.courses;
/** The field the spec sends a course's subjects in. */
const SUBJECTS = COURSE_SPEC_NAMES.subjects;

const PRICE_TEXT = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * The multipart text fields of POST /api/courses and PUT /api/courses/{id}, as the spec sends
 * them: `price` as text and the subjects (spelled by the one map, `subject`) as a JSON list of
 * texts. They become the form's values. The spec's wire form, so it lives at the REST edge.
 */
export const ZCourseMultipartFields = requestObject({
  title: z.unknown().optional(),
  description: z.unknown().optional(),
  duration: z.unknown().optional(),
  category: z.unknown().optional(),
  price: z.unknown().optional().transform((value, ctx) => {
    if (typeof value !== 'string' || value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: C.priceRequired });
      return z.NEVER;
    }
    if (!PRICE_TEXT.test(value.trim())) {
      ctx.addIssue({ code: 'custom', message: C.priceInvalid });
      return z.NEVER;
    }
    return Number(value.trim());
  }),
  [SUBJECTS]: z.unknown().optional().transform((value, ctx) => {
    if (typeof value !== 'string' || value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: C.subjectsRequired });
      return z.NEVER;
    }
    try {
      const list: unknown = JSON.parse(value);
      if (Array.isArray(list)) return list;
    } catch {
      // Falls through to the message below.
    }
    ctx.addIssue({ code: 'custom', message: C.subjectsNotList });
    return z.NEVER;
  }),
})
  .transform(({ [SUBJECTS]: subjects, ...rest }) => ({ ...rest, subjects }))
  .pipe(ZCourseForm);

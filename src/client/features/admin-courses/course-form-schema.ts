import { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import {
  COURSE_IMAGE_MAX_BYTES,
  COURSE_MAX_SUBJECTS,
  ZCourseForm,
  type TCourse,
} from '../../../shared/schemas/course.ts';
import { COURSE_SPEC_NAMES, fromSpecName } from '../../../shared/spec-fields.ts';

const C = MESSAGES.courses;
const fields = ZCourseForm.shape;

/** What the form's controls hold: text as typed, subjects as rows (useFieldArray needs objects). */
export type TCourseFormValues = {
  title: string;
  duration: string;
  price: string;
  category: string;
  description: string;
  subjects: { value: string }[];
  /** A newly chosen image; null keeps the current one (edit) or is refused (create). */
  image: File | null;
};

export const COURSE_TEXT_FIELDS = ['title', 'duration', 'price', 'category', 'description'] as const;

const PRICE_TEXT = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * The shared ZCourseForm's rules on the form's own shapes, so the browser says what the server
 * would, field by field; the image is required only when creating.
 */
export function courseFormSchema(imageRequired: boolean) {
  return z.object({
    title: fields.title,
    duration: fields.duration,
    category: fields.category,
    description: fields.description,
    price: z
      .string()
      .trim()
      .min(1, C.priceRequired)
      .regex(PRICE_TEXT, C.priceInvalid)
      .transform(Number)
      .pipe(fields.price),
    subjects: z
      .array(z.object({ value: fields.subjects.element }))
      .min(1, C.subjectsRequired)
      .max(COURSE_MAX_SUBJECTS, C.tooManySubjects(COURSE_MAX_SUBJECTS)),
    image: z.custom<File | null>((value) => value === null || value instanceof File).superRefine((file, context) => {
      if (!file) {
        if (imageRequired) context.addIssue({ code: 'custom', message: C.imageRequired });
        return;
      }
      // The server decides from the bytes; this spares a long upload of something it will refuse.
      if (!file.type.startsWith('image/')) context.addIssue({ code: 'custom', message: C.imageUnreadable });
      else if (file.size > COURSE_IMAGE_MAX_BYTES) context.addIssue({ code: 'custom', message: C.imageTooLarge });
    }),
  });
}
export type TCourseFormOutput = z.output<ReturnType<typeof courseFormSchema>>;

export function emptyCourseValues(): TCourseFormValues {
  return { title: '', duration: '', price: '', category: '', description: '', subjects: [{ value: '' }], image: null };
}

export function courseValues(course: TCourse): TCourseFormValues {
  return {
    title: course.title,
    duration: course.duration,
    price: String(course.price),
    category: course.category,
    description: course.description,
    subjects: course.subjects.length > 0 ? course.subjects.map((value) => ({ value })) : [{ value: '' }],
    image: null,
  };
}

/**
 * The multipart body of POST /api/courses and PUT /api/courses/{id}, under the spec's names: the
 * subjects as a JSON list of texts, and the image as the new file, or (on an edit) the current
 * image's name as text, which tells the server to keep it.
 */
export function toCourseFormData(values: TCourseFormOutput, currentImage: string | undefined): FormData {
  const body = new FormData();
  body.set('title', values.title);
  body.set('description', values.description);
  body.set('duration', values.duration);
  body.set('price', String(values.price));
  body.set('category', values.category);
  body.set(COURSE_SPEC_NAMES.subjects, JSON.stringify(values.subjects.map((row) => row.value)));
  if (values.image) body.set(COURSE_SPEC_NAMES.image, values.image, values.image.name);
  else if (currentImage) body.set(COURSE_SPEC_NAMES.image, currentImage);
  return body;
}

/** The form field a server field name (`subjects.2`, the image's) belongs to. */
export function formFieldOf(serverField: string): string | undefined {
  const field = fromSpecName(COURSE_SPEC_NAMES, serverField);
  if (field === 'image' || field === 'subjects') return field;
  const subject = /^subjects\.(\d+)$/.exec(field);
  if (subject) return `subjects.${subject[1]}.value`;
  return (COURSE_TEXT_FIELDS as readonly string[]).includes(field) ? field : undefined;
}

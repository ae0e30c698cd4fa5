import type { TCourse } from '../../shared/schemas/course.ts';

/*
 * The spec's JSON shapes (section 3) that more than one REST adapter answers. Spec field names live
 * here and in the REST adapters only; everything inside the server uses clear names.
 */

/** A course as the spec's screens read it (section 3): `_id`, `subject`, `courseImg`. */
export function toRestCourse(course: TCourse) {
  return {
    _id: course.id,
    title: course.title,
    description: course.description,
    duration: course.duration,
    price: course.price,
    category: course.category,
    subject: course.subjects,
    courseImg: course.image,
    isActive: course.isActive,
    createdAt: course.createdAt,
    updatedAt: course.updatedAt,
  };
}

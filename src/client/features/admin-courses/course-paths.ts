import { adminPath } from '@/components/layouts/admin-menu.ts';

export const ADMIN_COURSES_PATH = adminPath('courses');
export const CREATE_COURSE_PATH = adminPath('create-course');

/** The course form for editing one course; the id in the address makes a reload keep the course. */
export function editCoursePath(courseId: string): string {
  return `${CREATE_COURSE_PATH}?edit=${encodeURIComponent(courseId)}`;
}

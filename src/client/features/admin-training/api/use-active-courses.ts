import { useMemo } from 'react';
import type { TCourse } from '../../../../shared/schemas/course.ts';
import { useAdminCourses } from '@/lib/api/courses.ts';

/** Active courses, each once, by title: the courses a training can be uploaded for. */
export function activeCoursesOf(courses: readonly TCourse[]): TCourse[] {
  const byId = new Map<string, TCourse>();
  for (const course of courses) if (course.isActive && !byId.has(course.id)) byId.set(course.id, course);
  return [...byId.values()].sort((a, b) => a.title.localeCompare(b.title));
}

/** The admin's course list, narrowed to the active courses (Upload Training Videos' course list). */
export function useActiveCourses() {
  const query = useAdminCourses();
  const courses = useMemo(() => (query.data ? activeCoursesOf(query.data) : undefined), [query.data]);
  return { ...query, courses };
}

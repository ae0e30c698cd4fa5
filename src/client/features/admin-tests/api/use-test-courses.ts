import { useMemo } from 'react';
import type { TCourse } from '../../../../shared/schemas/course.ts';
import { useAdminCourses } from '@/lib/api/courses.ts';

/**
 * The active courses a test can be written for, each title once (spec: "deduplicated by title"):
 * two active courses with the same title would be one line of the select, so the first listed
 * (the newest) stands for the title. Sorted by title.
 */
export function testCoursesOf(courses: readonly TCourse[]): TCourse[] {
  const byTitle = new Map<string, TCourse>();
  for (const course of courses) {
    const key = course.title.trim().toLowerCase();
    if (course.isActive && !byTitle.has(key)) byTitle.set(key, course);
  }
  return [...byTitle.values()].sort((a, b) => a.title.localeCompare(b.title));
}

/** The admin's course list, narrowed to the courses Create New Test offers. */
export function useTestCourses() {
  const query = useAdminCourses();
  const courses = useMemo(() => (query.data ? testCoursesOf(query.data) : undefined), [query.data]);
  return { ...query, courses };
}

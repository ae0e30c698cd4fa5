import { useMemo } from 'react';
import { useAdminCourses } from '@/lib/api/courses.ts';

/**
 * The courses for the evidence export: every course, active or not (a course closed since still
 * has the certificates it issued), sorted by title.
 */
export function useEvidenceCourses() {
  const query = useAdminCourses();
  const courses = useMemo(
    () => query.data && [...query.data].sort((a, b) => a.title.localeCompare(b.title)).map(({ id, title, isActive }) => ({ id, title, isActive })),
    [query.data],
  );
  return { ...query, courses };
}

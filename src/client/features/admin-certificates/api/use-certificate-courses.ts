import { useMemo } from 'react';
import { useAdminCourses } from '@/lib/api/courses.ts';

/**
 * The certificate screens' course choice: every course, active or not (a course closed since
 * still has the certificates it issued), sorted by title.
 */
export function useCertificateCourses() {
  const query = useAdminCourses();
  const courses = useMemo(
    () => query.data && [...query.data].sort((a, b) => a.title.localeCompare(b.title)).map(({ id, title, isActive }) => ({ id, title, isActive })),
    [query.data],
  );
  return { ...query, courses };
}

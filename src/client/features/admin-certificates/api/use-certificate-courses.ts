import { useMemo } from 'react';
import { trpc } from '@/lib/trpc.ts';

/**
 * courses.adminList for the certificate screens' course choice: every course, active or not (a
 * course closed since still has the certificates it issued), sorted by title.
 */
export function useCertificateCourses() {
  const query = trpc.courses.adminList.useQuery(undefined, { staleTime: 60_000 });
  const courses = useMemo(
    () => query.data && [...query.data].sort((a, b) => a.title.localeCompare(b.title)).map(({ id, title, isActive }) => ({ id, title, isActive })),
    [query.data],
  );
  return { ...query, courses };
}

import { trpc } from '@/lib/trpc.ts';

/**
 * courses.adminList: every course, active or not, for the admin screens that choose or list
 * courses. Staff lists are read afresh on each visit: another member may have added, changed or
 * closed a course since. Each screen narrows or sorts it for its own use.
 */
export function useAdminCourses() {
  return trpc.courses.adminList.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

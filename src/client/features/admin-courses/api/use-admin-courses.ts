import { trpc } from '@/lib/trpc.ts';

/** courses.adminList: every course, active or not, read afresh on each visit. */
export function useAdminCourses() {
  return trpc.courses.adminList.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
}

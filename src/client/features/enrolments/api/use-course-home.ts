import { trpc } from '@/lib/trpc.ts';

/** enrolments.courseHome: an approved learner's course, training and progress, read afresh on each visit. */
export function useCourseHome(courseId: string) {
  return trpc.enrolments.courseHome.useQuery({ courseId }, { staleTime: 0, refetchOnMount: 'always' });
}

import { trpc } from '@/lib/trpc.ts';

/** enrolments.dashboard: the active courses, each with the learner's enrolment in it. */
export function useDashboardCourses() {
  return trpc.enrolments.dashboard.useQuery();
}

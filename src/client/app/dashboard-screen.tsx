import { DashboardPage } from '@/features/dashboard/dashboard-page.tsx';
import { DashboardCourseList } from '@/features/enrolments/dashboard-course-list.tsx';
import { useDashboardCourses } from '@/features/enrolments/api/use-dashboard-courses.ts';

/**
 * /dashboard: the learner's home, with each feature's section below the tiles. The dashboard and
 * the course screens share a code group ('courses' in config/routes.ts), so the course list comes
 * with the page rather than after it.
 */
export function DashboardScreen() {
  // Asked for here, in the same render as the page's auth.me, so both go out in one batched
  // request.
  useDashboardCourses();
  return (
    <DashboardPage>
      <DashboardCourseList />
    </DashboardPage>
  );
}

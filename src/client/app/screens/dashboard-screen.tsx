import { lazyNamed } from '@/app/lazy-screen.tsx';
import { DashboardPage } from '@/features/dashboard/dashboard-page.tsx';
import { useDashboardCourses } from '@/features/enrolments/api/use-dashboard-courses.ts';

// Loaded with the other course screens, so the entry's list of chunks does not grow (decision 006).
export const DashboardCourseList = lazyNamed(() => import('@/app/screens/learner-course-screens.ts'), 'DashboardCourseList');

/** /dashboard: the learner's home, with each feature's section below the tiles. */
export function DashboardScreen() {
  // Asked for here, in the same render as the page's auth.me, so both go out in one batched
  // request instead of the list's query waiting for its lazy section to arrive.
  useDashboardCourses();
  return (
    <DashboardPage>
      <DashboardCourseList />
    </DashboardPage>
  );
}

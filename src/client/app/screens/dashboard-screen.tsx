import { lazy } from 'react';
import { DashboardPage } from '@/features/dashboard/dashboard-page.tsx';

// Loaded with the other course screens, so the entry's list of chunks does not grow (decision 006).
const DashboardCourseList = lazy(async () => ({
  default: (await import('@/app/screens/learner-course-screens.ts')).DashboardCourseList,
}));

/** /dashboard: the learner's home, with each feature's section below the tiles. */
export function DashboardScreen() {
  return (
    <DashboardPage>
      <DashboardCourseList />
    </DashboardPage>
  );
}

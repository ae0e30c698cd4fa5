/*
 * The course screens of visitors and learners, loaded as one chunk: each separate lazy import
 * adds its list of chunk names to the home page's entry (see decision 006).
 */
export { CoursesPage } from '@/features/enrolments/courses-page.tsx';
export { CourseContentPage } from '@/features/enrolments/course-content-page.tsx';
export { EnrolmentRequestsPage } from '@/features/enrolments/enrolment-requests-page.tsx';
export { UserCoursesPage } from '@/features/enrolments/user-courses-page.tsx';
export { DashboardCourseList } from '@/features/enrolments/dashboard-course-list.tsx';

/*
 * The administrators' course and enrolment screens, loaded as one chunk: each separate lazy
 * import adds its list of chunk names to the home page's entry (see decision 006).
 */
export { AdminCoursesPage } from '@/features/admin-courses/admin-courses-page.tsx';
export { CourseFormPage } from '@/features/admin-courses/course-form-page.tsx';
export { EnrolmentRequestsAdminPage } from '@/features/admin-enrolments/enrolment-requests-admin-page.tsx';

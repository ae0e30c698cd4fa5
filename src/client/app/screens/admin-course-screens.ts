/*
 * The administrators' course list and enrolment requests as one chunk. The course form is with
 * the other forms (admin-form-screens.ts).
 */
export { AdminCoursesPage } from '@/features/admin-courses/admin-courses-page.tsx';
export { EnrolmentRequestsAdminPage } from '@/features/admin-enrolments/enrolment-requests-admin-page.tsx';

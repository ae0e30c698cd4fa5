/*
 * The administrators' forms (a course, a test, a training upload) as one chunk: they share the
 * form library, zod and the course picker, which the area's lists do not load (decision 035).
 */
export { CourseFormPage } from '@/features/admin-courses/course-form-page.tsx';
export { TestFormPage } from '@/features/admin-tests/test-form-page.tsx';
export { UploadTrainingVideosPage } from '@/features/admin-training/upload-training-videos-page.tsx';

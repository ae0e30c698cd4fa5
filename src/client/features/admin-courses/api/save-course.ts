import { paths } from '@/config/paths.ts';
import { trpc } from '@/lib/trpc.ts';
import { useUpload } from '@/lib/upload/use-upload.ts';

/**
 * POST /api/courses (create) or PUT /api/courses/{id} (update) with the course form's multipart
 * body, with upload progress; an administrator whose session cannot be renewed logs in again at
 * /backend. `reloadCourses` refreshes every list and copy of the courses once one was saved.
 */
export function useSaveCourse(courseId?: string) {
  const utils = trpc.useUtils();
  const { percent, upload } = useUpload({ loginPath: paths.adminLogin });

  function save(body: FormData) {
    return upload(courseId ? { method: 'PUT', url: `/api/courses/${courseId}`, body } : { method: 'POST', url: '/api/courses', body });
  }

  function reloadCourses() {
    return Promise.all([
      utils.courses.adminList.invalidate(),
      utils.courses.catalogue.invalidate(),
      courseId ? utils.courses.adminGet.invalidate({ courseId }) : undefined,
    ]);
  }

  return { percent, save, reloadCourses };
}

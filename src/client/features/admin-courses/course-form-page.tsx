import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { BackLink } from '@/components/navigation/back-link.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useAdminCourse } from '@/features/admin-courses/api/use-admin-course.ts';
import { CourseCertificateSettings } from '@/features/admin-courses/course-certificate-settings.tsx';
import { CourseForm } from '@/features/admin-courses/course-form.tsx';
import { errorMessage, httpStatusOf } from '@/lib/api-errors.ts';

/** The course the list passed along in navigation state, if it is the one being edited. */
function passedCourse(state: unknown, courseId: string): TCourse | undefined {
  if (!state || typeof state !== 'object' || !('course' in state)) return undefined;
  const course = (state as { course: unknown }).course;
  return course && typeof course === 'object' && (course as TCourse).id === courseId ? (course as TCourse) : undefined;
}

function EditCourse({ courseId }: { courseId: string }) {
  const location = useLocation();
  const course = useAdminCourse(courseId, passedCourse(location.state, courseId));

  if (course.isPending) {
    return (
      <div className="grid gap-4" aria-busy>
        <span role="status" className="sr-only">
          Loading the course…
        </span>
        <Skeleton className="h-[560px] rounded-xl" />
      </div>
    );
  }
  if (course.isError) {
    const status = httpStatusOf(course.error);
    if (status === 404 || status === 400) {
      return (
        <ListEmpty message={MESSAGES.courses.notFound} hint="It may have been removed, or the link is mistyped.">
          <Button asChild className="mt-5">
            <Link to={paths.admin.courses.list}>Back to All Courses</Link>
          </Button>
        </ListEmpty>
      );
    }
    return (
      <LoadError
        title={MESSAGES.courses.adminLoadFailed}
        message={errorMessage(course.error, { fallback: MESSAGES.common.internal })}
        onRetry={() => void course.refetch()}
        retrying={course.isFetching}
      />
    );
  }
  // Keyed by the saved version, so a newer copy from the server refills the form. The certificate
  // settings are saved on their own, under it.
  return (
    <>
      <CourseForm key={`${course.data.id}:${course.data.updatedAt}`} course={course.data} />
      <CourseCertificateSettings courseId={course.data.id} />
    </>
  );
}

/** /admin-dashboard/create-course, and with ?edit=<id> the same form for an existing course. */
export function CourseFormPage() {
  const [params] = useSearchParams();
  const editId = params.get('edit');

  return (
    <AdminPage
      width="3xl"
      title={editId ? 'Edit Course' : 'Create Course'}
      description={
        editId
          ? 'Change the course’s details. Leave the image as it is to keep the current one.'
          : 'A new course is published in the catalogue as soon as it is saved.'
      }
      before={
        editId && (
          <div className="mb-3">
            <BackLink to={paths.admin.courses.list}>All Courses</BackLink>
          </div>
        )
      }
    >
      {editId ? <EditCourse key={editId} courseId={editId} /> : <CourseForm key="new" />}
    </AdminPage>
  );
}

import { Clock, Pencil, Plus, Power, PowerOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { paths } from '@/config/paths.ts';
import { CourseImage } from '@/components/course/course-image.tsx';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { CourseCardsSkeleton, ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { PagedList } from '@/components/lists/paged-list.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useCourseActivation } from '@/features/admin-courses/api/use-course-activation.ts';
import { CourseActivationDialog } from '@/features/admin-courses/course-activation-dialog.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { useAdminCourses } from '@/lib/api/courses.ts';
import { formatRupees } from '@/lib/format.ts';
import { wholeList } from '@/lib/paging/use-page-params.ts';
import { useStaffMay } from '@/lib/staff-role.ts';

const GRID = 'grid gap-6 sm:grid-cols-2 xl:grid-cols-3';

/** A course; Edit and Activate/Deactivate only with `onToggle`, for a role that may change courses. */
function AdminCourseCard({ course, onToggle }: { course: TCourse; onToggle: (() => void) | undefined }) {
  const headingId = `admin-course-${course.id}`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className={`flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-card ${
          course.isActive ? 'border-border' : 'border-dashed border-navy-300'
        }`}
      >
        <div className="relative">
          <CourseImage image={course.image} alt={`Image of ${course.title}`} className={course.isActive ? undefined : 'opacity-60 grayscale'} />
          <Badge variant={course.isActive ? 'success' : 'outline'} className="absolute top-3 left-3 shadow-sm">
            {course.isActive ? 'Active' : 'Inactive'}
          </Badge>
        </div>
        <div className="flex flex-1 flex-col p-5">
          <p className="text-xs font-semibold tracking-wider text-sea-700 uppercase">{course.category}</p>
          <h2 id={headingId} className="mt-1 line-clamp-2 text-lg leading-snug font-semibold text-navy-900">
            {course.title}
          </h2>
          <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-muted-foreground">{course.description}</p>
          <dl className="mt-auto flex flex-wrap items-center justify-between gap-x-4 gap-y-1 pt-4 text-sm">
            <div className="flex items-center gap-1.5">
              <Clock className="size-4 text-sea-700" aria-hidden />
              <dt className="sr-only">Duration</dt>
              <dd className="font-medium text-navy-900">{course.duration}</dd>
            </div>
            <div>
              <dt className="sr-only">Price</dt>
              <dd className="text-lg font-bold text-navy-900">{formatRupees(course.price)}</dd>
            </div>
          </dl>
          {onToggle && (
            <div className="mt-4 grid grid-cols-2 gap-2">
              <Button asChild variant="outline">
                <Link to={paths.admin.courses.edit(course.id)} state={{ course }} aria-label={`Edit ${course.title}`}>
                  <Pencil aria-hidden />
                  Edit
                </Link>
              </Button>
              <Button
                variant={course.isActive ? 'outline' : 'secondary'}
                onClick={onToggle}
                aria-label={`${course.isActive ? 'Deactivate' : 'Activate'} ${course.title}`}
              >
                {course.isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />}
                {course.isActive ? 'Deactivate' : 'Activate'}
              </Button>
            </div>
          )}
        </div>
      </article>
    </li>
  );
}

/** /admin-dashboard/courses: every course, active or not, to edit and to open or close. */
export function AdminCoursesPage() {
  const list = useAdminCourses();
  const activation = useCourseActivation();
  const [confirming, setConfirming] = useState<TCourse | null>(null);
  const mayEdit = useStaffMay('courses.edit');

  // The catalogue's toast, once per failure; the inline error below stays with a way to retry.
  useEffect(() => {
    if (list.isError) toast.error(MESSAGES.courses.adminLoadFailed, { id: 'admin-courses-load', duration: ADMIN_TOAST_MS });
  }, [list.isError]);

  function confirmToggle() {
    if (!confirming) return;
    activation.setActive(confirming.id, !confirming.isActive, () => setConfirming(null));
  }

  return (
    <AdminPage
      {...adminPageHeadOf(paths.admin.courses.list)}
      action={
        mayEdit ? (
          <Button asChild>
            <Link to={paths.admin.courses.create}>
              <Plus aria-hidden />
              Create Course
            </Link>
          </Button>
        ) : undefined
      }
    >
      {/* The server answers every course at once: the list is its one page. */}
      <PagedList
        query={{ data: wholeList(list.data), isError: list.isError }}
        noun="courses"
        staleOnError="hide"
        loading={<CourseCardsSkeleton className={GRID} count={3} />}
        error={
          <LoadError
            title={MESSAGES.courses.adminLoadFailed}
            message={errorMessage(list.error, { fallback: MESSAGES.common.internal })}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        }
        empty={
          <ListEmpty message={MESSAGES.courses.empty} hint={mayEdit ? 'Create the first course: it is published as soon as it is saved.' : undefined}>
            {mayEdit && (
              <Button asChild className="mt-5">
                <Link to={paths.admin.courses.create}>
                  <Plus aria-hidden />
                  Create Course
                </Link>
              </Button>
            )}
          </ListEmpty>
        }
      >
        {(courses) => (
          <ul className={GRID}>
            {courses.map((course) => (
              <AdminCourseCard key={course.id} course={course} onToggle={mayEdit ? () => setConfirming(course) : undefined} />
            ))}
          </ul>
        )}
      </PagedList>

      <CourseActivationDialog
        course={confirming}
        pending={activation.pending}
        onConfirm={confirmToggle}
        onClose={() => setConfirming(null)}
      />
    </AdminPage>
  );
}

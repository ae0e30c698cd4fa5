import { Clock, Loader2, Rocket, RotateCw, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TDashboardCourse } from '../../../shared/schemas/enrolment.ts';
import { paths } from '@/config/paths.ts';
import { CourseImage } from '@/components/course/course-image.tsx';
import { EnrolmentStatusBadge } from '@/components/course/enrolment-status-badge.tsx';
import { CourseCardsSkeleton, ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useDashboardCourses } from '@/features/enrolments/api/use-dashboard-courses.ts';
import { useOfflineApi } from '@/features/enrolments/api/use-offline-api.ts';
import { useRequestEnrolment } from '@/features/enrolments/api/use-request-enrolment.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { DownloadedBadge } from '@/features/enrolments/downloaded-badge.tsx';
import { formatRupees } from '@/lib/format.ts';
import { useDownloadedCourses, useDownloadsUpkeep } from '@/lib/offline/use-downloads-upkeep.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';

// About 280 × 550 px on wide screens (spec section 9), the full width on phones.
const GRID = 'grid gap-6 sm:grid-cols-[repeat(auto-fill,minmax(250px,1fr))]';
// A minimum, so a long title or a second row of badges never clips the text.
const CARD_HEIGHT = 'sm:min-h-[550px]';

function CourseButton({
  course,
  requesting,
  onRequest,
}: {
  course: TDashboardCourse;
  requesting: boolean;
  onRequest: () => void;
}) {
  const status = course.enrolment?.status;
  if (status === 'approved') {
    return (
      <Button asChild className="w-full">
        <Link to={paths.courseContent(course.id)} aria-label={`Launch ${course.title}`}>
          <Rocket aria-hidden />
          Launch
        </Link>
      </Button>
    );
  }
  if (status === 'pending') {
    return (
      <Button variant="secondary" className="w-full" disabled>
        <Clock aria-hidden />
        Request pending
      </Button>
    );
  }
  const again = status === 'rejected';
  return (
    <Button
      className="w-full"
      onClick={onRequest}
      disabled={requesting}
      aria-busy={requesting || undefined}
      aria-label={`${again ? 'Request again' : 'Enrollment'}: ${course.title}`}
    >
      {requesting ? <Loader2 className="animate-spin" aria-hidden /> : again ? <RotateCw aria-hidden /> : <Send aria-hidden />}
      {again ? 'Request again' : 'Enrollment'}
    </Button>
  );
}

function DashboardCourseCard({
  course,
  requesting,
  onRequest,
  downloaded,
}: {
  course: TDashboardCourse;
  requesting: boolean;
  onRequest: () => void;
  downloaded: boolean;
}) {
  const headingId = `dashboard-course-${course.id}`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className={`flex h-full flex-col overflow-hidden rounded-xl border border-border bg-card shadow-card ${CARD_HEIGHT}`}
      >
        <CourseImage image={course.image} className="shrink-0" />
        <div className="flex min-h-0 flex-1 flex-col p-5">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{course.category}</Badge>
            {course.enrolment && <EnrolmentStatusBadge status={course.enrolment.status} />}
            {downloaded && <DownloadedBadge />}
          </div>
          <h3 id={headingId} className="mt-3 line-clamp-2 text-lg leading-snug font-semibold text-navy-900">
            {course.title}
          </h3>
          <p className="mt-2 line-clamp-4 shrink-0 text-sm leading-relaxed text-muted-foreground">{course.description}</p>
          <dl className="mt-auto grid grid-cols-2 gap-x-3 gap-y-1 pt-4 text-sm">
            <dt className="text-muted-foreground">Duration</dt>
            <dd className="text-right font-medium text-navy-900">{course.duration}</dd>
            <dt className="text-muted-foreground">Price</dt>
            <dd className="text-right text-lg font-bold text-navy-900">{formatRupees(course.price)}</dd>
          </dl>
          <div className="mt-4">
            <CourseButton course={course} requesting={requesting} onRequest={onRequest} />
          </div>
        </div>
      </article>
    </li>
  );
}

/** The dashboard's 'Course List': active courses, each with the learner's enrolment in it. */
export function DashboardCourseList() {
  const courses = useDashboardCourses();
  const [userId] = useState(() => readStoredUser()?._id ?? null);
  // Opening the app: downloads whose enrolment ended leave the device, unfinished ones carry on.
  useDownloadsUpkeep(useOfflineApi(), userId);
  const downloaded = useDownloadedCourses(userId);
  const { request, isRequesting } = useRequestEnrolment();

  return (
    <section aria-labelledby="course-list-heading" className="mt-12">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="course-list-heading" className="text-xl font-bold tracking-tight text-navy-900 sm:text-2xl">
            Course List
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Request a place in a course; once the academy approves it, Launch opens the course.
          </p>
        </div>
        <Link
          to={paths.enrolmentRequests}
          className="rounded-sm text-sm font-semibold text-sea-700 underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          Your enrollment requests
        </Link>
      </div>

      <div className="mt-6">
        {courses.isPending ? (
          <CourseCardsSkeleton className={GRID} count={4} cardClassName={CARD_HEIGHT} />
        ) : courses.isError ? (
          <LoadError
            title={MESSAGES.enrolment.loadFailed}
            message={errorMessage(courses.error, { fallback: MESSAGES.enrolment.loadFailed })}
            onRetry={() => void courses.refetch()}
            retrying={courses.isFetching}
          />
        ) : courses.data.length === 0 ? (
          <ListEmpty
            message={MESSAGES.courses.empty}
            hint="The academy has no open courses right now. New ones appear here as soon as they are published."
          />
        ) : (
          <ul className={GRID}>
            {courses.data.map((course) => (
              <DashboardCourseCard
                key={course.id}
                course={course}
                requesting={isRequesting(course.id)}
                onRequest={() => request(course.id)}
                downloaded={downloaded.has(course.id)}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

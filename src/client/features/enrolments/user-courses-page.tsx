import { Clock, Lock, PlayCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TMyEnrolment } from '../../../shared/schemas/enrolment.ts';
import { paths } from '@/config/paths.ts';
import { EnrolmentStatusBadge } from '@/components/course/enrolment-status-badge.tsx';
import { CourseCardsSkeleton, ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { useMyEnrolments } from '@/features/enrolments/api/use-my-enrolments.ts';
import { useOfflineApi } from '@/features/enrolments/api/use-offline-api.ts';
import { DownloadedBadge } from '@/features/enrolments/downloaded-badge.tsx';
import { LearnerPageHeader } from '@/features/enrolments/learner-page-header.tsx';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatRupees } from '@/lib/format.ts';
import { useDownloadedCourses, useDownloadsUpkeep } from '@/lib/offline/use-downloads-upkeep.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const GRID = 'grid gap-6 md:grid-cols-2 xl:grid-cols-3';

function notApprovedReason(enrolment: TMyEnrolment): string {
  if (enrolment.status === 'pending') return 'Waiting for the academy to approve your request.';
  if (enrolment.status === 'rejected') return 'Your request was not approved.';
  return 'This course is closed at the moment.';
}

function UserCourseCard({ enrolment, downloaded }: { enrolment: TMyEnrolment; downloaded: boolean }) {
  const { course, progress } = enrolment;
  const headingId = `user-course-${enrolment.id}`;
  const progressLabelId = `${headingId}-progress`;
  const hasVideos = progress.totalVideos > 0;
  return (
    <li>
      <article aria-labelledby={headingId} className="flex h-full flex-col rounded-xl border border-border bg-card p-6 shadow-card">
        <div className="flex flex-wrap items-center gap-2">
          <EnrolmentStatusBadge status={enrolment.status} />
          {downloaded && <DownloadedBadge />}
          <span className="text-xs text-muted-foreground">{course.category}</span>
        </div>
        <h2 id={headingId} className="mt-3 line-clamp-2 text-lg leading-snug font-semibold text-navy-900">
          {course.title}
        </h2>
        <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-muted-foreground">{course.description}</p>
        <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-1 text-sm">
          <div className="flex items-center gap-1.5">
            <Clock className="size-4 text-sea-700" aria-hidden />
            <dt className="sr-only">Duration</dt>
            <dd className="font-medium text-navy-900">{course.duration}</dd>
          </div>
          <div className="flex gap-1.5">
            <dt className="text-muted-foreground">Price</dt>
            <dd className="font-semibold text-navy-900">{formatRupees(course.price)}</dd>
          </div>
        </dl>

        <div className="mt-auto pt-5">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span id={progressLabelId} className="font-medium text-navy-900">
              Training progress
            </span>
            <span className="font-semibold text-navy-900">{progress.percent}%</span>
          </div>
          <Progress value={progress.percent} className="mt-2" aria-labelledby={progressLabelId} />
          <p className="mt-1.5 text-xs text-muted-foreground">
            {hasVideos
              ? `${progress.completedVideos} of ${progress.totalVideos} parts completed`
              : 'No training videos published yet'}
          </p>
          <div className="mt-4">
            {enrolment.hasAccess && course.isActive ? (
              <Button asChild className="w-full">
                <Link to={paths.training(course.id)}>
                  <PlayCircle aria-hidden />
                  Launch the Course
                </Link>
              </Button>
            ) : (
              <div className="rounded-md border border-border bg-muted px-3 py-2 text-center text-sm">
                <p className="flex items-center justify-center gap-1.5 font-semibold text-navy-800">
                  <Lock className="size-4" aria-hidden />
                  Not Approved
                </p>
                <p className="mt-0.5 text-xs text-muted-foreground">{notApprovedReason(enrolment)}</p>
              </div>
            )}
          </div>
        </div>
      </article>
    </li>
  );
}

/** /UserCource, Your Courses: the learner's courses with their real training progress. */
export function UserCoursesPage() {
  useDocumentTitle('Your Courses');
  const mine = useMyEnrolments({ fresh: true });
  const [userId] = useState(() => readStoredUser()?._id ?? null);
  useDownloadsUpkeep(useOfflineApi(), userId);
  const downloaded = useDownloadedCourses(userId);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6">
      <LearnerPageHeader eyebrow="Learning" title="Your Courses">
        The courses you have requested. Approved courses open their training with Launch the Course.
      </LearnerPageHeader>

      <div className="mt-8">
        {mine.isPending ? (
          <CourseCardsSkeleton className={GRID} count={3} />
        ) : mine.isError ? (
          <LoadError
            title={MESSAGES.enrolment.loadFailed}
            message={errorMessage(mine.error, { fallback: MESSAGES.enrolment.loadFailed })}
            onRetry={() => void mine.refetch()}
            retrying={mine.isFetching}
          />
        ) : mine.data.length === 0 ? (
          <ListEmpty message={MESSAGES.courses.empty} hint="Request a course from the Course List on your dashboard.">
            <Button asChild className="mt-5">
              <Link to={paths.dashboard}>Go to your dashboard</Link>
            </Button>
          </ListEmpty>
        ) : (
          <ul className={GRID}>
            {mine.data.map((enrolment) => (
              <UserCourseCard key={enrolment.id} enrolment={enrolment} downloaded={downloaded.has(enrolment.course.id)} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

import { ArrowRight, Clock, Loader2, RotateCw } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { paths } from '@/config/paths.ts';
import { CourseImage } from '@/components/course/course-image.tsx';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { CourseCardsSkeleton, ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useCatalogue } from '@/features/enrolments/api/use-catalogue.ts';
import { useMyEnrolments } from '@/features/enrolments/api/use-my-enrolments.ts';
import { useRequestEnrolment } from '@/features/enrolments/api/use-request-enrolment.ts';
import { readClaims } from '@/lib/access-token.ts';
import { formatRupees } from '@/lib/format.ts';
import { useAccessToken } from '@/lib/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const GRID = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

type CourseAction = {
  status: TEnrolmentStatus | undefined;
  requesting: boolean;
  onEnrol: () => void;
};

/** 'Enroll Now', or where the learner already stands with this course. */
function CourseCardAction({ course, action }: { course: TCourse; action: CourseAction }) {
  const { status, requesting, onEnrol } = action;
  if (status === 'approved') {
    return (
      <Button asChild className="w-full">
        <Link to={paths.courseContent(course.id)}>
          Open course
          <ArrowRight aria-hidden />
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
  return (
    <Button className="w-full" onClick={onEnrol} disabled={requesting} aria-busy={requesting || undefined}>
      {requesting ? <Loader2 className="animate-spin" aria-hidden /> : status === 'rejected' && <RotateCw aria-hidden />}
      {status === 'rejected' ? 'Request again' : 'Enroll Now'}
    </Button>
  );
}

function VisitorCourseCard({ course, action, eager }: { course: TCourse; action: CourseAction; eager: boolean }) {
  const headingId = `course-${course.id}-title`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex h-full flex-col overflow-hidden rounded-xl border border-border bg-card shadow-card"
      >
        <CourseImage image={course.image} eager={eager} />
        <div className="flex flex-1 flex-col p-5">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{course.category}</Badge>
            <span className="text-xs font-medium text-muted-foreground">{course.duration}</span>
          </div>
          <h2 id={headingId} className="mt-3 line-clamp-2 text-lg leading-snug font-semibold text-navy-900">
            {course.title}
          </h2>
          <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-muted-foreground">{course.description}</p>
          <div className="mt-auto pt-5">
            <p className="text-xl font-bold text-navy-900">
              <span className="sr-only">Price: </span>
              {formatRupees(course.price)}
            </p>
            {action.status && action.status !== 'approved' && (
              <p className="mt-1 text-xs text-muted-foreground">
                {action.status === 'pending'
                  ? 'The academy is reviewing your request.'
                  : 'Your last request was not approved. You may ask again.'}
              </p>
            )}
            <div className="mt-3">
              <CourseCardAction course={course} action={action} />
            </div>
          </div>
        </div>
      </article>
    </li>
  );
}

/** The signed-in learner's status per course, when there is a learner, and whether it is known yet. */
function useOwnStatuses(enabled: boolean): { statuses: Map<string, TEnrolmentStatus>; known: boolean } {
  const mine = useMyEnrolments({ enabled });
  const statuses = useMemo(
    () => new Map((enabled ? (mine.data ?? []) : []).map((enrolment) => [enrolment.courseId, enrolment.status])),
    [enabled, mine.data],
  );
  return { statuses, known: enabled && !mine.isPending };
}

/**
 * The course whose Enroll Now a visitor pressed before logging in: the login screen hands it back
 * in navigation state (`returnState` of the login's arrival), which only this app can set, so no
 * link can make a learner request a course.
 */
function courseToEnrolOnArrival(state: unknown): string | undefined {
  if (!state || typeof state !== 'object' || !('enrolIn' in state)) return undefined;
  return typeof state.enrolIn === 'string' && state.enrolIn !== '' ? state.enrolIn : undefined;
}

/** /courses: the public catalogue of active courses. */
export function CoursesPage() {
  useDocumentTitle('Courses');
  const navigate = useNavigate();
  const token = useAccessToken();
  const isLearner = token !== null && readClaims(token)?.role === 'learner';
  const location = useLocation();
  const catalogue = useCatalogue();
  const { statuses, known } = useOwnStatuses(isLearner);
  const { request, isRequesting } = useRequestEnrolment();

  function enrol(courseId: string) {
    // A visitor logs in first; the login screen brings them back here with the course, and the
    // request goes out then (below).
    if (!token) {
      navigate(paths.login, { state: { from: paths.courses, returnState: { enrolIn: courseId } } });
      return;
    }
    request(courseId);
  }

  // Back from the login with a course to enrol in: once the learner's own requests are known,
  // send the request (its toast confirms it), or say where the learner already stands. The
  // state is then dropped, so a reload or a return to this page does not ask again.
  const enrolOnArrival = courseToEnrolOnArrival(location.state);
  const handledArrival = useRef<string | null>(null);
  useEffect(() => {
    if (!enrolOnArrival || !known || handledArrival.current === location.key) return;
    handledArrival.current = location.key;
    navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
    const status = statuses.get(enrolOnArrival);
    if (status === 'pending') toast.info(MESSAGES.enrolment.alreadyPending);
    else if (status === 'approved') toast.info(MESSAGES.enrolment.alreadyApproved);
    else request(enrolOnArrival);
  }, [enrolOnArrival, known, statuses, location, navigate, request]);

  return (
    <>
      <PageHero eyebrow="Courses" title="Explore Our Courses">
        STCW and specialised training for seafarers, approved by the academy. Choose a course and request a place.
      </PageHero>

      <section aria-label="Courses" className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
        {catalogue.isPending ? (
          <CourseCardsSkeleton className={GRID} count={4} />
        ) : catalogue.isError ? (
          <LoadError
            title={MESSAGES.courses.visitorLoadFailed}
            onRetry={() => void catalogue.refetch()}
            retrying={catalogue.isFetching}
          />
        ) : catalogue.data.length === 0 ? (
          <ListEmpty
            message={MESSAGES.courses.empty}
            hint="New courses are published here as soon as the academy opens them. Please check back soon."
          />
        ) : (
          <ul className={GRID}>
            {catalogue.data.map((course, index) => (
              <VisitorCourseCard
                key={course.id}
                course={course}
                eager={index < 2}
                action={{
                  status: statuses.get(course.id),
                  requesting: isRequesting(course.id),
                  onEnrol: () => enrol(course.id),
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

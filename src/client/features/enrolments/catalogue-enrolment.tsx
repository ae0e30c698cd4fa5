import { ArrowRight, Clock, Loader2, RotateCw } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { useMyEnrolments } from '@/features/enrolments/api/use-my-enrolments.ts';
import { useRequestEnrolment } from '@/features/enrolments/api/use-request-enrolment.ts';
import { readClaims } from '@/lib/session/access-token.ts';
import { useAccessToken } from '@/lib/session/session.ts';

type TCourseAction = {
  status: TEnrolmentStatus | undefined;
  requesting: boolean;
  onEnrol: () => void;
};

/** 'Enroll Now', or where the learner already stands with this course. */
function CourseCardAction({ course, action }: { course: TCourse; action: TCourseAction }) {
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

/** A catalogue card's enrolment: where the learner stands, when it needs saying, and the action. */
function CourseEnrolment({ course, action }: { course: TCourse; action: TCourseAction }) {
  return (
    <>
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
    </>
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

/**
 * Enrolment on the catalogue (/courses): each card's Enroll Now, or where the learner stands with
 * the course, as the catalogue's card action. A visitor logs in first and comes back to the
 * request.
 */
export function useCatalogueEnrolment(): (course: TCourse) => ReactNode {
  const navigate = useNavigate();
  const token = useAccessToken();
  const isLearner = token !== null && readClaims(token)?.role === 'learner';
  const location = useLocation();
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

  return (course) => (
    <CourseEnrolment
      course={course}
      action={{ status: statuses.get(course.id), requesting: isRequesting(course.id), onEnrol: () => enrol(course.id) }}
    />
  );
}

import { MESSAGES } from '../../../shared/messages.ts';
import { personName } from '../../../shared/names.ts';
import {
  ENROLMENT_PAGE_DEFAULT_SIZE,
  type TCourseHome,
  type TDashboardCourse,
  type TEnrolmentDecisionResult,
  type TEnrolmentRequestItem,
  type TEnrolmentRequestPage,
  type TEnrolmentRequestQuery,
  type TEnrolmentSummary,
  type TEnrolResult,
  type TMyEnrolment,
  type TProgress,
} from '../../../shared/schemas/enrolment.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { inBatches, type TWholeList } from '../../lib/whole-list.ts';
import { getCatalogue, lockCourseForEnrolment, toCourse } from '../courses/catalogue.service.ts';
import { revokeStreamAccess } from '../training/stream.service.ts';
import type { TSessionUser, TStaffActor } from '../../lib/session-user.ts';
import { actorOfStaff, recordAudit } from '../audit/audit.service.ts';
import { readPage } from '../../lib/paging.ts';
import type { Executor } from '../../db/client.ts';
import {
  addExtraAttempts,
  clearTrainingRound,
  countCompletedVideos,
  decide,
  lockOwn,
  openGrantedRound,
  findOwn,
  findOwnWithCourse,
  findOwnWithCourses,
  findRequestById,
  findStatusesOfUser,
  findTrainingOf,
  markTrainingSubmitted,
  searchRequests as searchRequestRows,
  type TEnrolmentRow,
  type TRequestRow,
  upsertRequest,
} from './enrolments.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'jobs' | 'jwtSecret' | 'logger' | 'site' | 'accessGrants'>;
const E = MESSAGES.enrolment;

function toSummary(row: TEnrolmentRow): TEnrolmentSummary {
  return {
    id: row.id,
    courseId: row.courseId,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

function toProgress(counts: { completed: number; total: number } | undefined): TProgress {
  const completedVideos = counts?.completed ?? 0;
  const totalVideos = counts?.total ?? 0;
  return { completedVideos, totalVideos, percent: totalVideos ? Math.floor((100 * completedVideos) / totalVideos) : 0 };
}

function toRequestItem(row: TRequestRow): TEnrolmentRequestItem {
  return {
    id: row.id,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    user: { id: row.userId, name: personName(row), email: row.email },
    course: {
      id: row.courseId,
      title: row.courseTitle,
      description: row.courseDescription,
      duration: row.courseDuration,
      price: row.coursePrice,
      category: row.courseCategory,
      isActive: row.courseIsActive,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Learners

/**
 * A learner asks to join a course. Only approved learner accounts may ask, only for active
 * courses, and only once: a request pending or approved is not asked again (409, saying so); a
 * rejected one may be, and goes back to the queue as a new request.
 */
export async function requestEnrolment(deps: Deps, user: TSessionUser, courseId: string): Promise<TEnrolResult> {
  if (user.role !== 'learner') throw new AppError('FORBIDDEN', E.learnersOnly);
  if (!user.approved) throw new AppError('FORBIDDEN', E.accountNotApproved);
  const row = await deps.db.transaction(async (tx) => {
    const course = await lockCourseForEnrolment(tx, courseId);
    if (!course) throw notFound(MESSAGES.courses.notFound);
    const existing = await findOwn(tx, user.id, courseId);
    if (existing?.status === 'approved') throw new AppError('CONFLICT', E.alreadyApproved);
    if (existing?.status === 'pending') throw new AppError('CONFLICT', E.alreadyPending);
    if (!course.isActive) throw new AppError('CONFLICT', E.courseClosed);
    // Two requests at once: the second finds the first's pending row and changes nothing.
    const saved = await upsertRequest(tx, user.id, courseId, new Date());
    if (!saved) throw new AppError('CONFLICT', E.alreadyPending);
    return saved;
  });
  deps.logger.info({ enrolmentId: row.id, userId: user.id, courseId }, 'enrolment requested');
  return { message: E.submitted, enrolment: toSummary(row) };
}

/** The active courses for the learner's dashboard, each with the learner's enrolment if any. */
export async function listDashboard(deps: Deps, user: TSessionUser): Promise<TDashboardCourse[]> {
  const [catalogue, own] = await Promise.all([getCatalogue(deps), findStatusesOfUser(deps.db, user.id)]);
  const byCourse = new Map(own.map((row) => [row.courseId, toSummary(row)]));
  return catalogue.courses.map((course) => ({ ...course, enrolment: byCourse.get(course.id) ?? null }));
}

/** The learner's own enrolments, with their courses and real training progress. */
export async function listOwnEnrolments(deps: Deps, user: TSessionUser): Promise<TMyEnrolment[]> {
  const rows = await findOwnWithCourses(deps.db, user.id);
  const progress = await countCompletedVideos(
    deps.db,
    user.id,
    rows.map((row) => row.course.id),
  );
  return rows.map(({ enrolment, course }) => ({
    ...toSummary(enrolment),
    hasAccess: enrolment.status === 'approved',
    course: toCourse(deps, course),
    progress: toProgress(progress.get(course.id)),
  }));
}

export type TApprovedEnrolment = { id: string; trainingSubmittedAt: Date | null; extraAttempts: number };

/**
 * The learner's approved enrolment in a course (training and the test open only then), or null
 * for no enrolment or one not approved.
 */
export async function findApprovedEnrolment(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  courseId: string,
): Promise<TApprovedEnrolment | null> {
  const row = await findOwn(deps.db, userId, courseId);
  return row?.status === 'approved' ? { id: row.id, trainingSubmittedAt: row.trainingSubmittedAt, extraAttempts: row.extraAttempts } : null;
}

/** Records the learner's submission of the course's training (the first time counts). */
export function recordTrainingSubmitted(deps: Pick<AppDeps, 'db'>, enrolmentId: string, at = new Date()): Promise<Date> {
  return markTrainingSubmitted(deps.db, enrolmentId, at);
}

/**
 * The course home for a learner whose enrolment is approved (also after the course was
 * deactivated). Anyone else gets 404, exactly like a course that does not exist.
 */
export async function getCourseHome(deps: Deps, user: TSessionUser, courseId: string): Promise<TCourseHome> {
  const own = await findOwnWithCourse(deps.db, user.id, courseId);
  if (!own || own.enrolment.status !== 'approved') throw notFound(MESSAGES.courses.notFound);
  const videos = await findTrainingOf(deps.db, user.id, courseId);
  let earlierDone = true;
  const training = videos.length
    ? {
        setId: videos[0]!.setId,
        title: videos[0]!.setTitle,
        submittedAt: own.enrolment.trainingSubmittedAt?.toISOString() ?? null,
        videos: videos.map((video) => {
          const completed = video.completedAt !== null;
          const locked = !earlierDone;
          earlierDone &&= completed;
          return {
            id: video.id,
            serial: video.serial,
            title: video.name,
            ready: video.status === 'ready',
            durationSeconds: video.durationSeconds,
            completed,
            locked,
          };
        }),
      }
    : null;
  const completed = videos.filter((video) => video.completedAt !== null).length;
  return {
    course: toCourse(deps, own.course),
    enrolment: toSummary(own.enrolment),
    progress: toProgress({ completed, total: videos.length }),
    training,
  };
}

// ---------------------------------------------------------------------------------------------
// Administrators

/** Requests (pending unless asked otherwise), searched over learner name, e-mail and course title. */
export async function searchRequests(deps: Deps, query: TEnrolmentRequestQuery): Promise<TEnrolmentRequestPage> {
  const filter = { status: query.status ?? 'pending', search: query.search?.trim() ?? '' };
  return readPage(query, ENROLMENT_PAGE_DEFAULT_SIZE, (window) => searchRequestRows(deps.db, { ...filter, ...window }), toRequestItem);
}

/** How many requests are in a state (the overview's pending requests). */
export async function countRequests(deps: Pick<AppDeps, 'db'>, status: TEnrolmentRow['status']): Promise<number> {
  return (await searchRequestRows(deps.db, { status, search: '', limit: 0, offset: 0 })).total;
}

/** Every request with a status, searched like the pages, a batch at a time (the spec's whole list). */
export async function allRequests(
  deps: Deps,
  query: { status: TEnrolmentRow['status']; search?: string | undefined },
): Promise<TWholeList<TEnrolmentRequestItem>> {
  const filter = { status: query.status, search: query.search?.trim() ?? '' };
  const { total } = await searchRequestRows(deps.db, { ...filter, limit: 0, offset: 0 });
  const batches = inBatches(async (limit, offset) => (await searchRequestRows(deps.db, { ...filter, limit, offset })).rows.map(toRequestItem));
  return { total, batches };
}

async function requestItem(deps: Deps, enrolmentId: string): Promise<TEnrolmentRequestItem> {
  const row = await findRequestById(deps.db, enrolmentId);
  if (!row) throw notFound(E.notFound);
  return toRequestItem(row);
}

async function explainRefusal(deps: Deps, enrolmentId: string, refusals: Partial<Record<TEnrolmentRow['status'], string>>) {
  const current = await findRequestById(deps.db, enrolmentId);
  if (!current) return notFound(E.notFound);
  return new AppError('CONFLICT', refusals[current.status] ?? E.failed);
}

const DECISION_MAIL: Record<'approved' | 'rejected', { subject: string; body: (course: string) => string }> = {
  approved: {
    subject: 'your enrolment was accepted',
    body: (course) => `Your request to enrol in ${course} was accepted. The course is open in your dashboard.`,
  },
  rejected: {
    subject: 'your enrolment was not accepted',
    body: (course) => `Your request to enrol in ${course} was not accepted. You can ask again from the course list.`,
  },
};

/**
 * Records an administrator's decision and, in the same transaction, the mail that tells the
 * learner; the mail goes out once, after the commit. Refuses with 409 when nothing would change.
 */
async function decideRequest(
  deps: Deps,
  actor: TStaffActor,
  enrolmentId: string,
  decision: 'approved' | 'rejected',
  refusals: Partial<Record<TEnrolmentRow['status'], string>>,
): Promise<TEnrolmentRequestItem> {
  const from: TEnrolmentRow['status'][] = decision === 'approved' ? ['pending', 'rejected'] : ['pending', 'approved'];
  const decided = await deps.db.transaction(async (tx) => {
    // Locked first, so the status it had is the one this decision changes.
    const row = await findRequestById(tx, enrolmentId, true);
    if (!row || !(await decide(tx, enrolmentId, from, decision, actor.id, new Date()))) return undefined;
    const wording = DECISION_MAIL[decision];
    const mail = await queueMail(tx, {
      to: row.email,
      subject: `${deps.site.name}: ${wording.subject}`,
      text: [`Hello ${row.firstName},`, '', wording.body(row.courseTitle), '', deps.site.name].join('\n'),
    });
    await recordAudit(tx, actorOfStaff(actor), {
      action: decision === 'approved' ? 'enrolment.accept' : 'enrolment.reject',
      subjectType: 'enrolment',
      subjectId: enrolmentId,
      learnerId: row.userId,
      before: { status: row.status, courseId: row.courseId },
      after: { status: decision, courseId: row.courseId },
    });
    return { job: mail, userId: row.userId };
  });
  if (!decided) throw await explainRefusal(deps, enrolmentId, refusals);
  const { job } = decided;
  // A learner no longer approved stops playing the course's parts at once.
  if (decision === 'rejected') await revokeStreamAccess(deps, { userId: decided.userId });
  await deps.jobs.dispatch([job]);
  deps.logger.info({ enrolmentId, by: actor.id, decision }, 'enrolment decided');
  return requestItem(deps, enrolmentId);
}

/** Accept: pending or rejected → approved (spec section 2: Accept whenever the request is inactive). */
export async function acceptRequest(deps: Deps, actor: TStaffActor, enrolmentId: string): Promise<TEnrolmentDecisionResult> {
  const request = await decideRequest(deps, actor, enrolmentId, 'approved', { approved: E.alreadyAccepted });
  return { message: E.accepted, request };
}

/** Reject: pending or approved → rejected (an approved learner loses access to the course). */
export async function rejectRequest(deps: Deps, actor: TStaffActor, enrolmentId: string): Promise<TEnrolmentDecisionResult> {
  const request = await decideRequest(deps, actor, enrolmentId, 'rejected', { rejected: E.alreadyRejected });
  return { message: E.rejected, request };
}

// ---------------------------------------------------------------------------------------------
// Rounds of training and test attempts

/**
 * Inside a transaction: the learner's approved enrolment in the course, locked until commit, so
 * that openings, submissions and grants of attempts at its test take turns. Null when not approved.
 */
export async function lockApprovedEnrolment(tx: Executor, userId: string, courseId: string): Promise<TApprovedEnrolment | null> {
  const row = await lockOwn(tx, userId, courseId);
  return row?.status === 'approved' ? { id: row.id, trainingSubmittedAt: row.trainingSubmittedAt, extraAttempts: row.extraAttempts } : null;
}

/** The round's last attempt failed: the training must be submitted again, and granted attempts lapse. */
export function endTrainingRound(tx: Executor, enrolmentId: string): Promise<void> {
  return clearTrainingRound(tx, enrolmentId);
}

/** An administrator grants more attempts in the current round. */
export function grantExtraAttempts(tx: Executor, enrolmentId: string, attempts: number): Promise<void> {
  return addExtraAttempts(tx, enrolmentId, attempts);
}

/**
 * An administrator grants attempts after a round ended: a round starts now without the training
 * being watched again. `extraAttempts` is what the test's allowance is adjusted by, so that the
 * round holds just the attempts granted (it is negative when they are fewer than the allowance).
 */
export function openRoundByGrant(tx: Executor, enrolmentId: string, at: Date, extraAttempts: number): Promise<void> {
  return openGrantedRound(tx, enrolmentId, at, extraAttempts);
}

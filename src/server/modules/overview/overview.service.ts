import type { TAdminFigures } from '../../../shared/schemas/overview.ts';
import type { AppDeps } from '../../deps.ts';
import { testFigures } from '../tests/tests.service.ts';
import { countActiveCourses } from '../courses/course-admin.service.ts';
import { countRequests } from '../enrolments/enrolments.service.ts';
import { countAwaitingApproval } from '../users/users.service.ts';

/** India Standard Time is UTC+05:30 all year (no daylight saving). */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

/** The moment the current month began for the academy, in India. */
export function monthStartInIndia(now: Date): Date {
  const local = new Date(now.getTime() + IST_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - IST_OFFSET_MS);
}

/** The overview's figures, each from the module that owns it, read side by side. */
export async function adminFigures(deps: Pick<AppDeps, 'db'>, now = new Date()): Promise<TAdminFigures> {
  const monthStart = monthStartInIndia(now);
  const [pendingUsers, pendingEnrolments, activeCourses, tests] = await Promise.all([
    countAwaitingApproval(deps),
    countRequests(deps, 'pending'),
    countActiveCourses(deps),
    testFigures(deps, monthStart),
  ]);
  return {
    pendingUsers,
    pendingEnrolments,
    activeCourses,
    publishedTests: tests.publishedTests,
    attemptsThisMonth: tests.attemptsSince,
    monthStartedAt: monthStart.toISOString(),
    passRates: tests.passRates,
  };
}

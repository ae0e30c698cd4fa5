import { z } from 'zod';
import { ZCoursePassRate } from './tests.ts';

/** The administrators' landing page: what waits for them and how the tests go. */
export const ZAdminFigures = z.object({
  /** Learners who verified their e-mail and wait for approval. */
  pendingUsers: z.number().int(),
  /** Enrolment requests waiting for a decision. */
  pendingEnrolments: z.number().int(),
  activeCourses: z.number().int(),
  publishedTests: z.number().int(),
  /** Attempts submitted since the start of this month in India (`monthStartedAt`). */
  attemptsThisMonth: z.number().int(),
  monthStartedAt: z.string(),
  /** Every course with a submitted attempt, by title. */
  passRates: z.array(ZCoursePassRate),
});
export type TAdminFigures = z.infer<typeof ZAdminFigures>;

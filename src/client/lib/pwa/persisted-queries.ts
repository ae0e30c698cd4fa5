/*
 * Which of the learner's data the device keeps between visits, so the app opens at sea with the
 * last data seen (decision 050): the learner, the dashboard, Your Courses, a course's home and its
 * training player. Nothing of the administration area, nor the profile with its documents' links.
 * Kept per user (src/client/lib/pwa/query-persistence.ts), removed at logout.
 */

/** The tRPC procedures whose answers are kept on the device. */
export const PERSISTED_PROCEDURES: ReadonlySet<string> = new Set([
  'auth.me',
  'enrolments.dashboard',
  'enrolments.mine',
  'enrolments.courseHome',
  'training.player',
]);

/** How long a kept answer may be shown: older ones are dropped when the app opens. */
export const PERSISTED_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The procedure of a tRPC query key ([['enrolments', 'mine'], { type: 'query' }]), or undefined. */
export function procedureOf(queryKey: readonly unknown[]): string | undefined {
  const path = queryKey[0];
  return Array.isArray(path) && path.every((part) => typeof part === 'string') ? path.join('.') : undefined;
}

export function isPersistedQuery(queryKey: readonly unknown[]): boolean {
  const procedure = procedureOf(queryKey);
  return procedure !== undefined && PERSISTED_PROCEDURES.has(procedure);
}

import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern } from '../../db/like-patterns.ts';
import type { TAttemptQuestion } from '../../db/schema/tests.ts';
import {
  certificates,
  courses,
  testAttemptAnswers,
  testAttempts,
  testQuestions,
  tests,
  users,
} from '../../db/schema.ts';

export type TTestRow = typeof tests.$inferSelect;
export type TQuestionRow = typeof testQuestions.$inferSelect;
export type TAttemptRow = typeof testAttempts.$inferSelect;
export type TTestWithQuestions = TTestRow & {
  course: { id: string; title: string; isActive: boolean };
  questions: TQuestionRow[];
};

// ---------------------------------------------------------------------------------------------
// Tests and their questions

export async function insertTest(
  db: Executor,
  test: { courseId: string; title: string; passMark: number; questionsPerAttempt: number | null; attemptsAllowed: number; waitMinutes: number },
  questions: Array<{ questionText: string; options: string[]; correctAnswer: string }>,
): Promise<string> {
  const [row] = await db.insert(tests).values(test).returning({ id: tests.id });
  await db.insert(testQuestions).values(questions.map((question, index) => ({ ...question, testId: row!.id, position: index + 1 })));
  return row!.id;
}

/** Tests with their course and questions (in order), newest first. */
async function withQuestions(db: Executor, where: SQL | undefined, limit?: number): Promise<TTestWithQuestions[]> {
  const query = db
    .select({ test: tests, course: { id: courses.id, title: courses.title, isActive: courses.isActive } })
    .from(tests)
    .innerJoin(courses, eq(courses.id, tests.courseId))
    .where(where)
    .orderBy(desc(tests.createdAt), desc(tests.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  if (rows.length === 0) return [];
  const questions = await db
    .select()
    .from(testQuestions)
    .where(
      inArray(
        testQuestions.testId,
        rows.map((row) => row.test.id),
      ),
    )
    .orderBy(asc(testQuestions.testId), asc(testQuestions.position));
  const byTest = new Map<string, TQuestionRow[]>();
  for (const question of questions) {
    const list = byTest.get(question.testId);
    if (list) list.push(question);
    else byTest.set(question.testId, [question]);
  }
  return rows.map((row) => ({ ...row.test, course: row.course, questions: byTest.get(row.test.id) ?? [] }));
}

export function findAllTests(db: Executor, filter: { publishedOnly: boolean }): Promise<TTestWithQuestions[]> {
  return withQuestions(db, filter.publishedOnly ? eq(tests.isPublished, true) : undefined);
}

export async function findTestById(db: Executor, testId: string): Promise<TTestWithQuestions | undefined> {
  const [test] = await withQuestions(db, eq(tests.id, testId));
  return test;
}

/** The course's newest published test. */
export async function findPublishedOfCourse(db: Executor, courseId: string): Promise<TTestWithQuestions | undefined> {
  const [test] = await withQuestions(db, and(eq(tests.courseId, courseId), eq(tests.isPublished, true)), 1);
  return test;
}

/** Sets a test's published flag; false when there is no such test. */
/** Whether a test is published, its row locked until commit; undefined when there is no such test. */
export async function lockPublishedState(db: Executor, testId: string): Promise<boolean | undefined> {
  const [row] = await db.select({ isPublished: tests.isPublished }).from(tests).where(eq(tests.id, testId)).for('update');
  return row?.isPublished;
}

export async function setPublished(db: Executor, testId: string, isPublished: boolean): Promise<boolean> {
  const rows = await db.update(tests).set({ isPublished, updatedAt: new Date() }).where(eq(tests.id, testId)).returning({ id: tests.id });
  return rows.length > 0;
}

/** Sets a test's attempts policy; false when there is no such test. */
export async function setAttemptsPolicy(
  db: Executor,
  testId: string,
  policy: { questionsPerAttempt: number | null; attemptsAllowed: number; waitMinutes: number },
): Promise<boolean> {
  const rows = await db
    .update(tests)
    .set({ ...policy, updatedAt: new Date() })
    .where(eq(tests.id, testId))
    .returning({ id: tests.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Attempts

/** The learner's open attempt at the test, if any. */
export async function findOpenAttempt(db: Executor, userId: string, testId: string): Promise<TAttemptRow | undefined> {
  const [open] = await db
    .select()
    .from(testAttempts)
    .where(and(eq(testAttempts.userId, userId), eq(testAttempts.testId, testId), isNull(testAttempts.submittedAt)));
  return open;
}

/**
 * Starts an attempt with its drawn questions; the one already open when there is one (two
 * openings at once make one: the partial unique index on open attempts).
 */
export async function startAttempt(
  db: Executor,
  attempt: { userId: string; testId: string; courseId: string; startedAt: Date; questions: TAttemptQuestion[] },
): Promise<TAttemptRow> {
  const [created] = await db
    .insert(testAttempts)
    .values(attempt)
    .onConflictDoNothing({ target: [testAttempts.userId, testAttempts.testId], where: isNull(testAttempts.submittedAt) })
    .returning();
  return created ?? (await findOpenAttempt(db, attempt.userId, attempt.testId))!;
}

/**
 * The learner's attempts at a course: how many started since `roundSince` (none without it), how
 * many were submitted, whether one passed, and the last submitted one.
 */
export async function findAttemptFacts(
  db: Executor,
  userId: string,
  courseId: string,
  roundSince: Date | null,
): Promise<{ usedInRound: number; submittedCount: number; passed: boolean; last: TAttemptRow | undefined }> {
  const ofCourse = and(eq(testAttempts.userId, userId), eq(testAttempts.courseId, courseId));
  const [counts] = await db
    .select({
      usedInRound: roundSince
        ? sql<number>`(count(*) filter (where ${testAttempts.startedAt} > ${roundSince.toISOString()}::timestamptz))::int`
        : sql<number>`0`,
      submittedCount: sql<number>`count(${testAttempts.submittedAt})::int`,
      passed: sql<boolean>`coalesce(bool_or(${testAttempts.passed}), false)`,
    })
    .from(testAttempts)
    .where(ofCourse);
  const [last] = await db
    .select()
    .from(testAttempts)
    .where(and(ofCourse, isNotNull(testAttempts.submittedAt)))
    .orderBy(desc(testAttempts.submittedAt), desc(testAttempts.id))
    .limit(1);
  return { usedInRound: Number(counts?.usedInRound ?? 0), submittedCount: Number(counts?.submittedCount ?? 0), passed: Boolean(counts?.passed), last };
}

/**
 * Inside a transaction: the learner's open attempt, locked until commit. A submission that waited
 * for the lock finds the attempt already submitted and gets nothing.
 */
export async function lockOpenAttempt(tx: Executor, userId: string, testId: string): Promise<TAttemptRow | undefined> {
  const [row] = await tx
    .select()
    .from(testAttempts)
    .where(and(eq(testAttempts.userId, userId), eq(testAttempts.testId, testId), isNull(testAttempts.submittedAt)))
    .for('update');
  return row;
}

/**
 * Records the score of an open attempt, submitted at `at` (the server's clock, the one that
 * started it). Nothing comes back if it was already submitted.
 */
export async function completeAttempt(
  tx: Executor,
  attemptId: string,
  score: { score: number; totalQuestions: number; percentage: number; passed: boolean },
  at: Date,
): Promise<TAttemptRow | undefined> {
  const submittedAt = at.toISOString();
  const [row] = await tx
    .update(testAttempts)
    .set({
      ...score,
      submittedAt: at,
      timeTakenSeconds: sql`greatest(0, floor(extract(epoch from ${submittedAt}::timestamptz - ${testAttempts.startedAt})))::int`,
    })
    .where(and(eq(testAttempts.id, attemptId), isNull(testAttempts.submittedAt)))
    .returning();
  return row;
}

export async function insertAnswers(tx: Executor, attemptId: string, answers: Array<{ questionId: string; selectedAnswer: string }>) {
  if (answers.length === 0) return;
  await tx.insert(testAttemptAnswers).values(answers.map((answer) => ({ ...answer, attemptId })));
}

// ---------------------------------------------------------------------------------------------
// Results

const resultColumns = {
  id: testAttempts.id,
  score: testAttempts.score,
  totalQuestions: testAttempts.totalQuestions,
  percentage: testAttempts.percentage,
  timeTakenSeconds: testAttempts.timeTakenSeconds,
  startedAt: testAttempts.startedAt,
  submittedAt: testAttempts.submittedAt,
  passed: testAttempts.passed,
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  courseId: courses.id,
  courseTitle: courses.title,
  testId: tests.id,
  testTitle: tests.title,
  passMark: tests.passMark,
  certificate: {
    id: certificates.id,
    number: certificates.number,
    status: certificates.status,
    pdfFile: certificates.pdfFile,
    revokedAt: certificates.revokedAt,
  },
};
/** The certificate beside a passed attempt in Test Results (joined in the same query, no query per row). */
type TResultCertificate = Pick<typeof certificates.$inferSelect, 'id' | 'number' | 'status' | 'pdfFile' | 'revokedAt'>;
export type TResultRow = {
  id: string;
  score: number | null;
  totalQuestions: number | null;
  percentage: number | null;
  timeTakenSeconds: number | null;
  startedAt: Date;
  submittedAt: Date | null;
  passed: boolean | null;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  courseId: string;
  courseTitle: string;
  testId: string;
  testTitle: string;
  passMark: number;
  certificate: TResultCertificate | null;
};
export type TResultAnswerRow = {
  attemptId: string;
  questionId: string;
  position: number;
  questionText: string;
  selectedAnswer: string;
  correctAnswer: string;
};


/**
 * Beyond this many matches a results page says "at least this many" (`totalIsEstimate`) instead of
 * counting every match: an exact count of a million attempts reads them all (decision 029).
 */
export const RESULTS_COUNT_BOUND = 10_000;

/**
 * Submitted attempts whose learner's name or e-mail, or course title, contains `search` (any
 * case), most recent first, with the total of the whole filtered list: exact up to `countUpTo`
 * (every match when absent), else `countUpTo` itself with `totalIsEstimate` (a lower bound).
 *
 * Every shape of search stays on an index (decision 029). The matches are the matching learners'
 * attempts (`test_attempts (user_id, submitted_at, id)`, learners found by the trigram index on
 * `users.search_text`) followed by the matching courses' attempts of the other learners
 * (`test_attempts (course_id, submitted_at, id)`): a `union all` without duplicates, so a bounded
 * count stops at its bound. A page of few matches (the count was exact) is those matches sorted;
 * a page of many walks `test_attempts (submitted_at, id)` backwards, where matches are dense.
 * Only the page's ids are joined to learners, courses, tests and certificates.
 */
export async function searchResults(
  db: Executor,
  query: { search: string; limit: number; offset: number; countUpTo?: number },
): Promise<{ rows: TResultRow[]; total: number; totalIsEstimate: boolean }> {
  const submitted = isNotNull(testAttempts.submittedAt);
  let byLearner: SQL | undefined;
  let byCourse: SQL | undefined;
  let anyMatch: SQL | undefined;
  if (query.search) {
    const pattern = containsPattern(query.search);
    const matchingUsers = db.select({ id: users.id }).from(users).where(sql`${users.searchText} like lower(${pattern})`);
    const matchingCourses = db
      .select({ id: courses.id })
      .from(courses)
      .where(sql`lower(${courses.title}) like lower(${pattern})`);
    byLearner = and(submitted, inArray(testAttempts.userId, matchingUsers));
    byCourse = and(submitted, inArray(testAttempts.courseId, matchingCourses), notInArray(testAttempts.userId, matchingUsers));
    anyMatch = and(submitted, or(inArray(testAttempts.userId, matchingUsers), inArray(testAttempts.courseId, matchingCourses)));
  }

  const matches = (columns: { id: typeof testAttempts.id; submittedAt: typeof testAttempts.submittedAt }) =>
    byLearner && byCourse
      ? db.select(columns).from(testAttempts).where(byLearner).unionAll(db.select(columns).from(testAttempts).where(byCourse))
      : db.select(columns).from(testAttempts).where(submitted);
  const columns = { id: testAttempts.id, submittedAt: testAttempts.submittedAt };

  const bound = query.countUpTo;
  const counting = bound === undefined ? matches(columns) : matches(columns).limit(bound + 1);
  const [counted] = await db.select({ total: count() }).from(counting.as('matches'));
  const found = counted?.total ?? 0;
  const totalIsEstimate = bound !== undefined && found > bound;
  const total = totalIsEstimate ? bound : found;
  if (query.limit === 0 || query.offset >= found) return { rows: [], total, totalIsEstimate };

  // Few matches: all of them, sorted. Many: the newest attempts, kept when they match.
  let pageIds;
  if (totalIsEstimate || !anyMatch) {
    pageIds = db
      .select({ id: testAttempts.id })
      .from(testAttempts)
      .where(anyMatch ?? submitted)
      .orderBy(desc(testAttempts.submittedAt), desc(testAttempts.id))
      .limit(query.limit)
      .offset(query.offset);
  } else {
    const all = matches(columns).as('matches');
    pageIds = db
      .select({ id: all.id })
      .from(all)
      .orderBy(desc(all.submittedAt), desc(all.id))
      .limit(query.limit)
      .offset(query.offset);
  }

  const rows = await db
    .select(resultColumns)
    .from(testAttempts)
    .innerJoin(users, eq(users.id, testAttempts.userId))
    .innerJoin(courses, eq(courses.id, testAttempts.courseId))
    .innerJoin(tests, eq(tests.id, testAttempts.testId))
    // The learner's certificate for the course stands beside every passed attempt at it.
    .leftJoin(
      certificates,
      and(eq(certificates.userId, testAttempts.userId), eq(certificates.courseId, testAttempts.courseId), eq(testAttempts.passed, true)),
    )
    .where(inArray(testAttempts.id, pageIds))
    .orderBy(desc(testAttempts.submittedAt), desc(testAttempts.id));
  return { rows, total, totalIsEstimate };
}

/** The answers of these attempts with their questions, in question order. */
export function findAnswersOf(db: Executor, attemptIds: string[]): Promise<TResultAnswerRow[]> {
  if (attemptIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      attemptId: testAttemptAnswers.attemptId,
      questionId: testQuestions.id,
      position: testQuestions.position,
      questionText: testQuestions.questionText,
      selectedAnswer: testAttemptAnswers.selectedAnswer,
      correctAnswer: testQuestions.correctAnswer,
    })
    .from(testAttemptAnswers)
    .innerJoin(testQuestions, eq(testQuestions.id, testAttemptAnswers.questionId))
    .where(inArray(testAttemptAnswers.attemptId, attemptIds))
    .orderBy(asc(testAttemptAnswers.attemptId), asc(testQuestions.position));
}

// ---------------------------------------------------------------------------------------------
// Figures for the administrators' overview

export async function countPublishedTests(db: Executor): Promise<number> {
  const [row] = await db.select({ total: count() }).from(tests).where(eq(tests.isPublished, true));
  return row?.total ?? 0;
}

/** Attempts submitted at or after `since`. */
export async function countSubmittedSince(db: Executor, since: Date): Promise<number> {
  const [row] = await db.select({ total: count() }).from(testAttempts).where(gte(testAttempts.submittedAt, since));
  return row?.total ?? 0;
}

/** Per course with at least one submitted attempt: how many were submitted and how many passed, by title. */
export function countAttemptsByCourse(db: Executor): Promise<Array<{ courseId: string; courseTitle: string; attempts: number; passed: number }>> {
  return db
    .select({
      courseId: courses.id,
      courseTitle: courses.title,
      attempts: sql<number>`count(*)::int`,
      passed: sql<number>`(count(*) filter (where ${testAttempts.passed}))::int`,
    })
    .from(testAttempts)
    .innerJoin(courses, eq(courses.id, testAttempts.courseId))
    .where(isNotNull(testAttempts.submittedAt))
    .groupBy(courses.id, courses.title)
    .orderBy(asc(courses.title), asc(courses.id));
}

/** A learner's attempts at a course's tests, in the order they were started (the auditor's evidence). */
export function findAttemptsOfLearner(db: Executor, userId: string, courseId: string): Promise<TAttemptRow[]> {
  return db
    .select()
    .from(testAttempts)
    .where(and(eq(testAttempts.userId, userId), eq(testAttempts.courseId, courseId)))
    .orderBy(asc(testAttempts.startedAt), asc(testAttempts.id));
}

/** The questions' texts and right answers, by id. */
export async function findQuestionsByIds(db: Executor, ids: string[]): Promise<Array<Pick<TQuestionRow, 'id' | 'position' | 'questionText' | 'correctAnswer'>>> {
  if (ids.length === 0) return [];
  return db
    .select({ id: testQuestions.id, position: testQuestions.position, questionText: testQuestions.questionText, correctAnswer: testQuestions.correctAnswer })
    .from(testQuestions)
    .where(inArray(testQuestions.id, ids));
}

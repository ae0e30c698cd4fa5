import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { JOBS } from '../../../shared/jobs.ts';
import type { Executor } from '../../db/client.ts';
import {
  certificates,
  certificateVersions,
  courses,
  enrolments,
  jobOutbox,
  mails,
  offlineDownloads,
  offlineWatchRecords,
  oneTimePasswords,
  profiles,
  refreshTokens,
  testAttemptAnswers,
  testAttempts,
  testQuestions,
  tests,
  trainingVideos,
  trainingVideoSets,
  users,
  watchProgress,
  watchRefusals,
} from '../../db/schema.ts';

/*
 * Where a learner's personal data lives, in one place: every table the copy reads and the erasure
 * clears. A table that starts holding a learner's data is added here, to both.
 */

/** The account as the learner may see it: every column but the password's hash. */
export async function findAccount(db: Executor, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      title: users.title,
      firstName: users.firstName,
      lastName: users.lastName,
      mobile: users.mobile,
      email: users.email,
      role: users.role,
      staffRole: users.staffRole,
      verifiedAt: users.verifiedAt,
      approvedAt: users.approvedAt,
      certificateReminders: users.certificateReminders,
      erasedAt: users.erasedAt,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function findProfile(db: Executor, userId: string) {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  return row;
}

export function findEnrolments(db: Executor, userId: string) {
  return db
    .select({
      id: enrolments.id,
      courseId: enrolments.courseId,
      courseTitle: courses.title,
      status: enrolments.status,
      requestedAt: enrolments.requestedAt,
      decidedAt: enrolments.decidedAt,
      trainingSubmittedAt: enrolments.trainingSubmittedAt,
      extraAttempts: enrolments.extraAttempts,
      createdAt: enrolments.createdAt,
    })
    .from(enrolments)
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .where(eq(enrolments.userId, userId))
    .orderBy(asc(enrolments.createdAt));
}

export function findWatching(db: Executor, userId: string) {
  return db
    .select({
      courseId: trainingVideoSets.courseId,
      courseTitle: courses.title,
      part: trainingVideos.serial,
      partName: trainingVideos.originalName,
      watchedIntervals: watchProgress.watchedIntervals,
      watchedSeconds: watchProgress.watchedSeconds,
      timedSeconds: watchProgress.observedSeconds,
      lastPosition: watchProgress.lastPosition,
      firstReportAt: watchProgress.firstBeatAt,
      lastReportAt: watchProgress.lastBeatAt,
      completedAt: watchProgress.completedAt,
    })
    .from(watchProgress)
    .innerJoin(trainingVideos, eq(trainingVideos.id, watchProgress.videoId))
    .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
    .innerJoin(courses, eq(courses.id, trainingVideoSets.courseId))
    .where(eq(watchProgress.userId, userId))
    .orderBy(asc(courses.title), asc(trainingVideos.serial));
}

export function findWatchRefusals(db: Executor, userId: string) {
  return db
    .select({
      courseId: trainingVideoSets.courseId,
      part: trainingVideos.serial,
      reason: watchRefusals.reason,
      claimedFrom: watchRefusals.claimedFrom,
      claimedTo: watchRefusals.claimedTo,
      creditedSeconds: watchRefusals.creditedSeconds,
      at: watchRefusals.createdAt,
    })
    .from(watchRefusals)
    .innerJoin(trainingVideos, eq(trainingVideos.id, watchRefusals.videoId))
    .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
    .where(eq(watchRefusals.userId, userId))
    .orderBy(asc(watchRefusals.createdAt));
}

/** The learner's offline downloads (the device's signing key left out: it is a credential, not data about them). */
export function findOfflineDownloads(db: Executor, userId: string) {
  return db
    .select({
      id: offlineDownloads.id,
      courseId: offlineDownloads.courseId,
      courseTitle: courses.title,
      height: offlineDownloads.height,
      recordsTakenIn: offlineDownloads.lastSeq,
      creditedPlaySeconds: offlineDownloads.creditedPlaySeconds,
      createdAt: offlineDownloads.createdAt,
      updatedAt: offlineDownloads.updatedAt,
    })
    .from(offlineDownloads)
    .innerJoin(courses, eq(courses.id, offlineDownloads.courseId))
    .where(eq(offlineDownloads.userId, userId))
    .orderBy(asc(offlineDownloads.createdAt));
}

export function findOfflineRecords(db: Executor, userId: string) {
  return db
    .select({
      id: offlineWatchRecords.id,
      downloadId: offlineWatchRecords.downloadId,
      seq: offlineWatchRecords.seq,
      part: trainingVideos.serial,
      fromSeconds: offlineWatchRecords.fromSeconds,
      toSeconds: offlineWatchRecords.toSeconds,
      deviceStartedAt: offlineWatchRecords.deviceStartedAt,
      deviceEndedAt: offlineWatchRecords.deviceEndedAt,
      playedMs: offlineWatchRecords.playedMs,
      outcome: offlineWatchRecords.outcome,
      reason: offlineWatchRecords.reason,
      creditedSeconds: offlineWatchRecords.creditedSeconds,
      takenInAt: offlineWatchRecords.createdAt,
    })
    .from(offlineWatchRecords)
    .innerJoin(offlineDownloads, eq(offlineDownloads.id, offlineWatchRecords.downloadId))
    .innerJoin(trainingVideos, eq(trainingVideos.id, offlineWatchRecords.videoId))
    .where(eq(offlineDownloads.userId, userId))
    .orderBy(asc(offlineWatchRecords.downloadId), asc(offlineWatchRecords.seq));
}

export function findAttempts(db: Executor, userId: string) {
  return db
    .select({
      id: testAttempts.id,
      courseId: testAttempts.courseId,
      courseTitle: courses.title,
      testTitle: tests.title,
      startedAt: testAttempts.startedAt,
      submittedAt: testAttempts.submittedAt,
      score: testAttempts.score,
      totalQuestions: testAttempts.totalQuestions,
      percentage: testAttempts.percentage,
      timeTakenSeconds: testAttempts.timeTakenSeconds,
      passed: testAttempts.passed,
      questions: testAttempts.questions,
    })
    .from(testAttempts)
    .innerJoin(tests, eq(tests.id, testAttempts.testId))
    .innerJoin(courses, eq(courses.id, testAttempts.courseId))
    .where(eq(testAttempts.userId, userId))
    .orderBy(asc(testAttempts.startedAt));
}

/** The answers the learner gave, with each question's text as it reads now. */
export function findAnswers(db: Executor, userId: string) {
  return db
    .select({
      attemptId: testAttemptAnswers.attemptId,
      questionId: testAttemptAnswers.questionId,
      questionText: testQuestions.questionText,
      selectedAnswer: testAttemptAnswers.selectedAnswer,
    })
    .from(testAttemptAnswers)
    .innerJoin(testAttempts, eq(testAttempts.id, testAttemptAnswers.attemptId))
    .innerJoin(testQuestions, eq(testQuestions.id, testAttemptAnswers.questionId))
    .where(eq(testAttempts.userId, userId))
    .orderBy(asc(testAttemptAnswers.attemptId), asc(testQuestions.position));
}

export function findCertificates(db: Executor, userId: string) {
  return db
    .select({
      id: certificates.id,
      courseId: certificates.courseId,
      courseTitle: courses.title,
      number: certificates.number,
      version: certificates.version,
      status: certificates.status,
      pdfFile: certificates.pdfFile,
      holderName: certificates.holderName,
      holderDateOfBirth: certificates.holderDateOfBirth,
      holderIndosNo: certificates.holderIndosNo,
      holderPassportNumber: certificates.holderPassportNumber,
      holderCdcNumber: certificates.holderCdcNumber,
      courseCode: certificates.courseCode,
      approvalNumber: certificates.approvalNumber,
      validUntil: certificates.validUntil,
      issuedAt: certificates.issuedAt,
      reissuedAt: certificates.reissuedAt,
      revokedAt: certificates.revokedAt,
      revokeReason: certificates.revokeReason,
      supersededAt: certificates.supersededAt,
    })
    .from(certificates)
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .where(eq(certificates.userId, userId))
    .orderBy(asc(certificates.issuedAt));
}

export function findCertificateVersions(db: Executor, userId: string) {
  return db
    .select({
      certificateId: certificateVersions.certificateId,
      version: certificateVersions.version,
      pdfFile: certificateVersions.pdfFile,
      holderName: certificateVersions.holderName,
      holderDateOfBirth: certificateVersions.holderDateOfBirth,
      holderIndosNo: certificateVersions.holderIndosNo,
      holderPassportNumber: certificateVersions.holderPassportNumber,
      holderCdcNumber: certificateVersions.holderCdcNumber,
      madeAt: certificateVersions.madeAt,
      replacedAt: certificateVersions.replacedAt,
    })
    .from(certificateVersions)
    .innerJoin(certificates, eq(certificates.id, certificateVersions.certificateId))
    .where(eq(certificates.userId, userId))
    .orderBy(asc(certificateVersions.certificateId), asc(certificateVersions.version));
}

/** The account, held for the rest of the transaction, with what an erasure checks. */
export async function lockAccount(tx: Executor, userId: string) {
  const [row] = await tx
    .select({ id: users.id, role: users.role, email: users.email, passwordHash: users.passwordHash, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

/** Removes the profile row; answers its stored files' names. */
export async function deleteProfile(tx: Executor, userId: string) {
  const [row] = await tx
    .delete(profiles)
    .where(eq(profiles.userId, userId))
    .returning({ picture: profiles.profilePictureFile, idDocument: profiles.idDocumentFile, signature: profiles.signatureFile });
  return row;
}

/** Enrolments in courses the learner holds no certificate of. */
export async function deleteEnrolmentsExcept(tx: Executor, userId: string, keptCourseIds: readonly string[]) {
  const rows = await tx
    .delete(enrolments)
    .where(and(eq(enrolments.userId, userId), keptCourseIds.length ? notInArray(enrolments.courseId, [...keptCourseIds]) : undefined))
    .returning({ id: enrolments.id });
  return rows.length;
}

export async function countEnrolments(tx: Executor, userId: string) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(enrolments).where(eq(enrolments.userId, userId));
  return row?.n ?? 0;
}

/** The parts of the given courses' training (what backs their certificates' watching). */
function videosOfCourses(tx: Executor, courseIds: readonly string[]) {
  return tx
    .select({ id: trainingVideos.id })
    .from(trainingVideos)
    .innerJoin(trainingVideoSets, eq(trainingVideoSets.id, trainingVideos.setId))
    .where(inArray(trainingVideoSets.courseId, [...courseIds]));
}

/** Watching (and its refused reports) of parts not behind a kept certificate; answers the parts removed. */
export async function deleteWatchingExcept(tx: Executor, userId: string, keptCourseIds: readonly string[]) {
  const keep = keptCourseIds.length ? notInArray(watchProgress.videoId, videosOfCourses(tx, keptCourseIds)) : undefined;
  const removed = await tx.delete(watchProgress).where(and(eq(watchProgress.userId, userId), keep)).returning({ id: watchProgress.id });
  const keepRefusals = keptCourseIds.length ? notInArray(watchRefusals.videoId, videosOfCourses(tx, keptCourseIds)) : undefined;
  await tx.delete(watchRefusals).where(and(eq(watchRefusals.userId, userId), keepRefusals));
  return removed.length;
}

export async function countWatching(tx: Executor, userId: string) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(watchProgress).where(eq(watchProgress.userId, userId));
  return row?.n ?? 0;
}

/** Attempts (with their answers) at tests of courses the learner holds no certificate of. */
export async function deleteAttemptsExcept(tx: Executor, userId: string, keptCourseIds: readonly string[]) {
  const rows = await tx
    .delete(testAttempts)
    .where(and(eq(testAttempts.userId, userId), keptCourseIds.length ? notInArray(testAttempts.courseId, [...keptCourseIds]) : undefined))
    .returning({ id: testAttempts.id });
  return rows.length;
}

export async function countAttempts(tx: Executor, userId: string) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(testAttempts).where(eq(testAttempts.userId, userId));
  return row?.n ?? 0;
}

/** Every offline download (its records and fetches go with it). */
export async function deleteOfflineDownloads(tx: Executor, userId: string) {
  const rows = await tx.delete(offlineDownloads).where(eq(offlineDownloads.userId, userId)).returning({ id: offlineDownloads.id });
  return rows.length;
}

/** Mail to the address, sent or waiting (a queued one's job finds nothing to send). */
/** The mails to the address, and their send jobs' outbox rows: no job is left naming a mail that is gone. */
export async function deleteMailsTo(tx: Executor, email: string) {
  const rows = await tx.delete(mails).where(eq(mails.to, email)).returning({ id: mails.id });
  if (rows.length > 0) {
    await tx.delete(jobOutbox).where(and(eq(jobOutbox.name, JOBS.sendMail.name), inArray(jobOutbox.businessKey, rows.map((row) => row.id))));
  }
  return rows.length;
}

export async function deleteOneTimePasswords(tx: Executor, userId: string) {
  await tx.delete(oneTimePasswords).where(eq(oneTimePasswords.userId, userId));
}

/** Ends every session of the account: no refresh token of it renews again. */
export async function revokeRefreshTokens(tx: Executor, userId: string, at: Date) {
  await tx.update(refreshTokens).set({ revokedAt: at }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/**
 * Closes the account and replaces what identified it: the e-mail becomes an address that cannot
 * receive mail (so the real one is free for a new registration), the password can match nothing.
 */
export async function closeAccount(tx: Executor, userId: string, values: { at: Date; retainUntil: string | null }) {
  await tx
    .update(users)
    .set({
      title: '',
      firstName: 'Erased',
      lastName: 'learner',
      mobile: '',
      email: `erased-${userId}@erased.invalid`,
      passwordHash: '!erased',
      certificateReminders: false,
      deactivatedAt: values.at,
      erasedAt: values.at,
      retainUntil: values.retainUntil,
      updatedAt: values.at,
    })
    .where(eq(users.id, userId));
}

/** Erased accounts whose kept records' retention ended before `today` (YYYY-MM-DD). */
export async function findRetentionEnded(db: Executor, today: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`${users.erasedAt} is not null`, sql`${users.retainUntil} < ${today}::date`))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Removes what an erasure kept (the certificates, their versions and reminders, and the account
 * with every record left behind it); answers the certificates' PDF names, for their files.
 */
export async function deleteKeptRecords(tx: Executor, userId: string): Promise<string[]> {
  const versions = await tx
    .select({ pdfFile: certificateVersions.pdfFile })
    .from(certificateVersions)
    .innerJoin(certificates, eq(certificates.id, certificateVersions.certificateId))
    .where(eq(certificates.userId, userId));
  const removed = await tx.delete(certificates).where(eq(certificates.userId, userId)).returning({ pdfFile: certificates.pdfFile });
  await tx.delete(users).where(eq(users.id, userId));
  return [...removed, ...versions].flatMap((row) => (row.pdfFile ? [row.pdfFile] : []));
}

import { ZipArchive } from 'archiver';
import type { Readable } from 'node:stream';
import { addMonths, utcDay } from '../../../shared/calendar.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TErasureRequest, TErasureResult, TRetentionTerms } from '../../../shared/schemas/personal-data.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import type { TFileArea } from '../../lib/files/storage.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { throttle } from '../../lib/rate-limit.ts';
import type { TSessionUser } from '../../lib/session-user.ts';
import { actorOfUser, auditEntriesConcerning, recordAudit } from '../audit/audit.service.ts';
import { getAcademySettings } from '../settings/settings.service.ts';
import { revokeSessionChecks } from '../users/session.service.ts';
import {
  closeAccount,
  countAttempts,
  countEnrolments,
  countWatching,
  deleteAttemptsExcept,
  deleteEnrolmentsExcept,
  deleteKeptRecords,
  deleteMailsTo,
  deleteOfflineDownloads,
  deleteOneTimePasswords,
  deleteProfile,
  deleteWatchingExcept,
  findAccount,
  findAnswers,
  findAttempts,
  findCertificates,
  findCertificateVersions,
  findEnrolments,
  findOfflineDownloads,
  findOfflineRecords,
  findProfile,
  findRetentionEnded,
  findWatching,
  findWatchRefusals,
  lockAccount,
  revokeRefreshTokens,
} from './personal-data.repository.ts';

/*
 * The learner's own data (India's Digital Personal Data Protection Act, 2023): a copy of
 * everything the portal holds about them, and its erasure on request. Staff accounts are refused
 * both: a member of staff leaves through the owner's deactivation, and what the academy records
 * of its staff's work (the audit trail) is the academy's record.
 */

type Deps = Pick<AppDeps, 'db' | 'files' | 'logger' | 'accessGrants' | 'rateLimit'>;

/** Tries at the password that confirms an erasure, per account, as for a sign-in's password. */
const ERASURE_TRIES = { limit: 5, windowMs: 15 * 60_000 };

function refuseStaff(user: TSessionUser): void {
  if (user.role === 'admin') throw new AppError('FORBIDDEN', MESSAGES.personalData.staffRefused);
}

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.'));
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

type TArchiveFile = { path: string; about: string; area: TFileArea; name: string; bytes: number | null };
type TArchiveJson = { path: string; about: string; content: unknown };

/** A learner's data archive: its name, and the ZIP's bytes as they are written (never whole in memory). */
export type TDataArchive = { filename: string; stream: Readable };

const README = (learnerName: string, madeAt: string) => `Your data from the academy's training portal
===========================================

This archive holds everything the portal keeps about ${learnerName}, as it was at ${madeAt} (UTC).
Each file is described in index.json; in short:

  account.json           Your account: name, e-mail, mobile, when it was verified and approved.
                         (Your password is kept only as a one-way hash, and is not included.)
  profile.json           Your seafarer profile, every field, and when you accepted the notice on
                         why your documents are collected (consentAcceptedAt).
  documents/             The photograph, ID document and signature you uploaded.
  enrolments.json        The courses you asked to join, and the academy's decisions.
  watching.json          What you watched of each course's training (seconds, when), reports the
                         portal did not credit and why, and your downloads for offline study with
                         the watch records your devices sent.
  test-attempts.json     Every test attempt: the questions you were shown, the answers you gave,
                         your score and dates.
  certificates.json      Your certificates: what each prints about you, its dates and state.
  certificates/          The certificates' PDF files (earlier versions too, after a re-issue).
  preferences.json       Your choice about e-mail reminders before a certificate expires.
  consent.json           When you accepted the notice on your documents.
  audit-entries.json     The academy's audit trail entries about you or made by you, if any.
  index.json             This list, with each file's size.

Dates and times are in UTC (ISO 8601). Keep this archive safe: it holds your identity documents.
`;

/**
 * The caller's data as one ZIP archive, written as it is read: the records first (small), then the
 * stored files one at a time from storage, so a learner with many certificates holds one file's
 * buffer, not the archive. The download is recorded in the audit trail (`data.export`) before the
 * first byte goes.
 */
export async function exportMyData(deps: Deps, user: TSessionUser, address: string | null): Promise<TDataArchive> {
  refuseStaff(user);
  const userId = user.id;
  const [account, profile, enrolments, watching, refusals, downloads, offlineRecords, attempts, answers, certificates, versions, audit] = await Promise.all([
    findAccount(deps.db, userId),
    findProfile(deps.db, userId),
    findEnrolments(deps.db, userId),
    findWatching(deps.db, userId),
    findWatchRefusals(deps.db, userId),
    findOfflineDownloads(deps.db, userId),
    findOfflineRecords(deps.db, userId),
    findAttempts(deps.db, userId),
    findAnswers(deps.db, userId),
    findCertificates(deps.db, userId),
    findCertificateVersions(deps.db, userId),
    auditEntriesConcerning(deps.db, userId),
  ]);
  if (!account) throw new AppError('NOT_FOUND', MESSAGES.common.notFound);
  const madeAt = new Date();

  const files: Omit<TArchiveFile, 'bytes'>[] = [];
  if (profile) {
    files.push(
      { path: `documents/photograph${extensionOf(profile.profilePictureFile)}`, about: 'The photograph you uploaded with your profile.', area: 'profile_pictures', name: profile.profilePictureFile },
      { path: `documents/id-document${extensionOf(profile.idDocumentFile)}`, about: `The ID document you uploaded (${profile.idType}).`, area: 'id_documents', name: profile.idDocumentFile },
      { path: `documents/signature${extensionOf(profile.signatureFile)}`, about: 'The signature you uploaded.', area: 'signatures', name: profile.signatureFile },
    );
  }
  const certificateFileName = (number: string, version: number) => `certificates/${number.replaceAll('/', '-')}-v${version}.pdf`;
  for (const certificate of certificates) {
    if (certificate.pdfFile) {
      files.push({ path: certificateFileName(certificate.number, certificate.version), about: `Certificate ${certificate.number} (${certificate.courseTitle}), version ${certificate.version}.`, area: 'certificates', name: certificate.pdfFile });
    }
  }
  for (const version of versions) {
    const certificate = certificates.find((item) => item.id === version.certificateId);
    if (certificate && version.pdfFile) {
      files.push({ path: certificateFileName(certificate.number, version.version), about: `Certificate ${certificate.number}, earlier version ${version.version} (replaced by a re-issue).`, area: 'certificates', name: version.pdfFile });
    }
  }
  // Sizes now, so the index says what is there before the files are read; a file missing from
  // storage is listed as missing rather than cutting the archive short.
  const sized: TArchiveFile[] = await Promise.all(files.map(async (file) => ({ ...file, bytes: (await deps.files.size(file.area, file.name)) ?? null })));

  const answersOf = (attemptId: string) => answers.filter((answer) => answer.attemptId === attemptId).map(({ questionId, questionText, selectedAnswer }) => ({ questionId, questionText, selectedAnswer }));
  const json: TArchiveJson[] = [
    { path: 'account.json', about: 'Your account (without the password’s hash).', content: account },
    { path: 'profile.json', about: 'Your seafarer profile, every field; null if you have none.', content: profile ?? null },
    { path: 'enrolments.json', about: 'Your enrolments and the academy’s decisions.', content: enrolments },
    {
      path: 'watching.json',
      about: 'Your watching of each course’s training, the reports not credited and why, your offline downloads and the watch records your devices sent.',
      content: { parts: watching, refusedReports: refusals, offlineDownloads: downloads, offlineRecords },
    },
    { path: 'test-attempts.json', about: 'Your test attempts: questions shown, answers given, scores and dates.', content: attempts.map((attempt) => ({ ...attempt, answers: answersOf(attempt.id) })) },
    {
      path: 'certificates.json',
      about: 'Your certificates (what each prints about you, dates, state) and their earlier versions.',
      content: certificates.map(({ pdfFile, ...certificate }) => ({
        ...certificate,
        pdf: pdfFile ? certificateFileName(certificate.number, certificate.version) : null,
        earlierVersions: versions
          .filter((version) => version.certificateId === certificate.id)
          .map(({ pdfFile: versionPdf, certificateId: _, ...version }) => ({ ...version, pdf: versionPdf ? certificateFileName(certificate.number, version.version) : null })),
      })),
    },
    { path: 'preferences.json', about: 'Your choice about e-mail reminders before a certificate expires.', content: { certificateReminders: account.certificateReminders } },
    { path: 'consent.json', about: 'When you accepted the notice on why your documents are collected; null if not (yet).', content: { documentsNoticeAcceptedAt: profile?.consentAcceptedAt ?? null } },
    { path: 'audit-entries.json', about: 'The academy’s audit trail entries about you or made by you.', content: audit },
  ];

  await deps.db.transaction(async (tx) => {
    await recordAudit(tx, actorOfUser(user, address), {
      action: 'data.export',
      subjectType: 'user',
      subjectId: userId,
      learnerId: userId,
      after: { files: json.length + sized.length + 2, documents: sized.filter((file) => file.area !== 'certificates').length, certificates: certificates.length },
    });
  });

  const stamp = madeAt.toISOString();
  const index = {
    madeAt: stamp,
    account: account.id,
    files: [
      { path: 'README.txt', about: 'What this archive is, in words.' },
      { path: 'index.json', about: 'This list.' },
      ...json.map(({ path, about }) => ({ path, about })),
      ...sized.map(({ path, about, bytes }) => (bytes === null ? { path, about, missing: true } : { path, about, bytes })),
    ],
  };

  const archive = new ZipArchive({ zlib: { level: 6 } });
  let appended = 0;
  let written = 0;
  let waiting: (() => void) | undefined;
  archive.on('entry', () => {
    written += 1;
    if (written >= appended) waiting?.();
  });
  const allWritten = () => (written >= appended ? Promise.resolve() : new Promise<void>((resolve) => (waiting = resolve)));
  const add = (source: string | Readable, name: string, store = false) => {
    appended += 1;
    archive.append(source, { name, date: madeAt, store });
  };

  async function fill() {
    add(README(`${account!.firstName} ${account!.lastName}`, stamp), 'README.txt');
    add(pretty(index), 'index.json');
    for (const file of json) add(pretty(file.content), file.path);
    for (const file of sized) {
      if (file.bytes === null) continue;
      // One stored file open at a time: the next is opened once the last is in the archive.
      await allWritten();
      // Already compressed (PDF, JPEG, PNG): stored as they are.
      add(await deps.files.read(file.area, file.name), file.path, true);
    }
    await archive.finalize();
  }
  fill().catch((error: unknown) => {
    deps.logger.error({ err: error, userId }, 'data archive failed');
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return { filename: `my-data-${utcDay(madeAt)}.zip`, stream: archive };
}

/** What an erasure would keep: the caller's issued certificates, for the retention period the academy set. */
export async function retentionTerms(deps: Pick<AppDeps, 'db'>, user: TSessionUser): Promise<TRetentionTerms> {
  refuseStaff(user);
  const [settings, certificates] = await Promise.all([getAcademySettings(deps), findCertificates(deps.db, user.id)]);
  return { retentionYears: settings.retentionYears, certificates: certificates.map(({ number, courseTitle }) => ({ number, courseTitle })) };
}

/**
 * The learner's erasure, confirmed with their password. In one transaction: the profile and its
 * documents' rows, the enrolments, watching and attempts not behind an issued certificate, every
 * offline download, one-time code and mail to them go; the account is closed (no sign-in, every
 * session ended) and its name, e-mail, mobile and password replaced. Kept: each issued
 * certificate with its holder snapshot, versions and reminders, and the records behind it (the
 * course's enrolment, attempts with their answers, and watching with its refused reports), until
 * the retention period from today has passed. The audit entry (`data.erasure`, with what was kept
 * and removed) commits with it. After the commit the documents' files are removed and the
 * sessions' kept checks end.
 */
export async function eraseMyData(deps: Deps, user: TSessionUser, input: TErasureRequest, address: string | null): Promise<TErasureResult> {
  refuseStaff(user);
  // The password is guessed no faster here than at the sign-in.
  await throttle(deps, [[`erasure:${user.id}`, ERASURE_TRIES]], MESSAGES.personalData.tooManyTries);
  const settings = await getAcademySettings(deps);
  const at = new Date();
  const outcome = await deps.db.transaction(async (tx) => {
    const account = await lockAccount(tx, user.id);
    if (!account || account.erasedAt) throw new AppError('CONFLICT', MESSAGES.personalData.alreadyErased);
    if (!(await verifyPassword(account.passwordHash, input.password))) {
      throw new AppError('BAD_REQUEST', MESSAGES.personalData.passwordWrong, { fields: { password: MESSAGES.personalData.passwordWrong } });
    }
    const certificates = await findCertificates(tx, user.id);
    const keptCourseIds = [...new Set(certificates.map((certificate) => certificate.courseId))];
    const retainUntil = certificates.length > 0 ? addMonths(utcDay(at), settings.retentionYears * 12) : null;

    // The profile's identity history (earlier values, each check) goes with it (ON DELETE CASCADE);
    // what a certificate printed stays on the certificate.
    const profile = await deleteProfile(tx, user.id);
    const removed = {
      profile: profile !== undefined,
      documents: profile ? 3 : 0,
      enrolments: await deleteEnrolmentsExcept(tx, user.id, keptCourseIds),
      testAttempts: await deleteAttemptsExcept(tx, user.id, keptCourseIds),
      watchedParts: await deleteWatchingExcept(tx, user.id, keptCourseIds),
      offlineDownloads: await deleteOfflineDownloads(tx, user.id),
      mails: await deleteMailsTo(tx, account.email),
    };
    await deleteOneTimePasswords(tx, user.id);
    await revokeRefreshTokens(tx, user.id, at);
    await closeAccount(tx, user.id, { at, retainUntil });
    const kept = {
      certificates: certificates.map(({ number, courseTitle }) => ({ number, courseTitle })),
      testAttempts: await countAttempts(tx, user.id),
      watchedParts: await countWatching(tx, user.id),
      enrolments: await countEnrolments(tx, user.id),
    };
    await recordAudit(
      tx,
      actorOfUser(user, address),
      { action: 'data.erasure', subjectType: 'user', subjectId: user.id, learnerId: user.id, before: { requestedAt: at.toISOString() }, after: { outcome: 'erased', retainUntil, kept, removed } },
      at,
    );
    return { kept, removed, retainUntil, documents: profile };
  });

  // Sessions end at once; the documents' files go now that no row points to them (one left by a
  // failure here is removed by the sweep of unreferenced files).
  await revokeSessionChecks(deps, { userId: user.id });
  if (outcome.documents) {
    const { picture, idDocument, signature } = outcome.documents;
    const removals: [TFileArea, string][] = [
      ['profile_pictures', picture],
      ['id_documents', idDocument],
      ['signatures', signature],
    ];
    await Promise.all(
      removals.map(([area, name]) =>
        deps.files.remove(area, name).catch((error: unknown) => deps.logger.warn({ err: error, area, name }, 'erased document left for the sweep')),
      ),
    );
  }
  deps.logger.info({ userId: user.id, kept: outcome.kept.certificates.length }, 'personal data erased');
  return { message: MESSAGES.personalData.erased, erasedAt: at.toISOString(), retainUntil: outcome.retainUntil, kept: outcome.kept, removed: outcome.removed };
}

/**
 * The scheduled purge: for each erased account whose retention ended before today, its kept
 * certificates and the records behind them go, with the account row, in one transaction with its
 * audit entry (`data.purge`, by the system); the PDFs' files after the commit.
 */
export async function purgeEndedRetention(deps: Pick<AppDeps, 'db' | 'files' | 'logger'>, today: string = utcDay(), batch = 100): Promise<number> {
  const userIds = await findRetentionEnded(deps.db, today, batch);
  for (const userId of userIds) {
    const pdfFiles = await deps.db.transaction(async (tx) => {
      const files = await deleteKeptRecords(tx, userId);
      await recordAudit(tx, null, { action: 'data.purge', subjectType: 'user', subjectId: userId, learnerId: userId, after: { certificateFiles: files.length, retentionEndedBefore: today } });
      return files;
    });
    await Promise.all(
      pdfFiles.map((name) => deps.files.remove('certificates', name).catch((error: unknown) => deps.logger.warn({ err: error, name }, 'purged certificate file left for the sweep'))),
    );
  }
  if (userIds.length > 0) deps.logger.info({ accounts: userIds.length }, 'records past their retention removed');
  return userIds.length;
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { eq, or } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { MESSAGES } from '../../../shared/messages.ts';
import { createProfileWithFiles, createUser, sessionOf, TEST_PASSWORD } from '../../../testing/factories.ts';
import { readBack } from '../../../testing/pdf-read-back.ts';
import {
  auditEntries,
  certificates,
  enrolments,
  jobOutbox,
  mails,
  offlineDownloads,
  profileIdentityVersions,
  profiles,
  refreshTokens,
  testAttempts,
  users,
  watchProgress,
} from '../../db/schema.ts';
import { checkAuditChain } from '../audit/audit.service.ts';
import { queueMail } from '../../lib/mail/mail.service.ts';
import { purgeEndedRetention } from './personal-data.service.ts';
import { describe, expect, test } from '../../../testing/portal-test.ts';

let learnerProfile: typeof profiles.$inferSelect;
let otherProfile: typeof profiles.$inferSelect;

const text = (files: Record<string, Uint8Array>, name: string) => Buffer.from(files[name]!).toString('utf8');
const json = <T = unknown>(files: Record<string, Uint8Array>, name: string) => JSON.parse(text(files, name)) as T;


const it = test
  /** The audit entries that name the user, as actor or as the learner concerned (other files write entries of their own). */
  .extend('entriesBy', { scope: 'file' }, ({ db }) => (userId: string) =>
    db
      .select()
      .from(auditEntries)
      .where(or(eq(auditEntries.actorId, userId), eq(auditEntries.learnerId, userId)))
      .orderBy(auditEntries.seq))
  .extend('download', { scope: 'file' }, ({ world, portal }) => async (caller: 'learner' | 'otherLearner' | 'owner') => {
    return portal.app.inject({ method: 'GET', url: '/api/me/data.zip', headers: world.headers(caller) });
  });

it.beforeAll(async ({ portal, world, db }) => {
  [learnerProfile] = await db.select().from(profiles).where(eq(profiles.userId, world.users.learner.id)) as [typeof profiles.$inferSelect];
  otherProfile = await createProfileWithFiles(db, portal.runtime.files, world.users.otherLearner.id, { name: 'Other Seafarer', indosNo: '99ZZ9999' });
  await world.make.offlineDownload();
}, 120_000);

describe('the learner’s data archive', () => {
  it('holds every part of the caller’s data, their documents’ and certificate’s bytes, and nothing of anyone else', async ({ download, portal, world }) => {
    const answer = await download('learner');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzipSync(answer.rawPayload);
    const names = Object.keys(files);
    for (const name of ['README.txt', 'index.json', 'account.json', 'profile.json', 'enrolments.json', 'watching.json', 'test-attempts.json', 'certificates.json', 'preferences.json', 'consent.json', 'audit-entries.json']) {
      expect(names).toContain(name);
    }
    const index = json<{ files: { path: string; about: string }[] }>(files, 'index.json');
    expect(index.files.map((file) => file.path).sort()).toEqual([...names].sort());
    expect(index.files.every((file) => file.about.length > 0)).toBe(true);

    const account = json<Record<string, unknown>>(files, 'account.json');
    expect(account.email).toBe(world.users.learner.email);
    expect(account).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(account)).not.toContain(world.users.learner.passwordHash);

    const profile = json<Record<string, unknown>>(files, 'profile.json');
    expect(profile.indosNo).toBe(learnerProfile.indosNo);
    expect(profile.passportNumber).toBe(learnerProfile.passportNumber);
    expect(json<{ documentsNoticeAcceptedAt: string | null }>(files, 'consent.json').documentsNoticeAcceptedAt).toBe(learnerProfile.consentAcceptedAt?.toISOString() ?? null);
    expect(json(files, 'preferences.json')).toEqual({ certificateReminders: true });

    // The documents, byte for byte as stored.
    const photograph = names.find((name) => name.startsWith('documents/photograph'))!;
    const stored = await buffer(await portal.runtime.files.read('profile_pictures', learnerProfile.profilePictureFile));
    expect(Buffer.from(files[photograph]!).equals(stored)).toBe(true);
    const idDocument = names.find((name) => name.startsWith('documents/id-document'))!;
    expect(Buffer.from(files[idDocument]!).equals(await buffer(await portal.runtime.files.read('id_documents', learnerProfile.idDocumentFile)))).toBe(true);
    expect(names.some((name) => name.startsWith('documents/signature'))).toBe(true);

    // The certificate: its record and its PDF, which reads back with its number.
    const certificateRecords = json<{ number: string; holderName: string; pdf: string }[]>(files, 'certificates.json');
    const certificate = certificateRecords.find((item) => item.number === world.certificate.number)!;
    expect(certificate.pdf).toBe(`certificates/${world.certificate.number.replaceAll('/', '-')}-v1.pdf`);
    const pdf = Buffer.from(files[certificate.pdf]!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = mkdtempSync(path.join(tmpdir(), 'data-archive-'));
    try {
      writeFileSync(path.join(dir, 'certificate.pdf'), pdf);
      expect((await readBack(path.join(dir, 'certificate.pdf'))).text).toContain(world.certificate.number);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // Attempts with the answers as given; watching; enrolments; offline downloads.
    const attempts = json<{ courseId: string; passed: boolean | null; answers: { selectedAnswer: string }[] }[]>(files, 'test-attempts.json');
    const passed = attempts.find((attempt) => attempt.courseId === world.certificate.courseId)!;
    expect(passed.passed).toBe(true);
    expect(passed.answers).toEqual([expect.objectContaining({ selectedAnswer: 'CO2' })]);
    const watching = json<{ parts: { courseId: string; watchedSeconds: number }[]; offlineDownloads: { courseId: string }[] }>(files, 'watching.json');
    expect(watching.parts.map((part) => part.courseId)).toEqual(expect.arrayContaining([world.course.courseId, world.certificate.courseId]));
    expect(watching.offlineDownloads.map((item) => item.courseId)).toContain(world.course.courseId);
    expect(JSON.stringify(watching)).not.toContain('recordKey');
    expect(json<{ courseId: string }[]>(files, 'enrolments.json').map((item) => item.courseId)).toEqual(expect.arrayContaining([world.course.courseId, world.certificate.courseId]));

    // Nothing of the other learner anywhere in it.
    const everything = Object.values(files).map((bytes) => Buffer.from(bytes).toString('latin1')).join('\n');
    for (const foreign of [world.users.otherLearner.id, world.users.otherLearner.email, otherProfile.indosNo, otherProfile.name]) expect(everything).not.toContain(foreign);
    const otherPicture = await buffer(await portal.runtime.files.read('profile_pictures', otherProfile.profilePictureFile));
    expect(Object.values(files).some((bytes) => Buffer.from(bytes).equals(otherPicture))).toBe(false);
  });

  it('is recorded in the audit trail as the learner’s own act, and the next archive lists that entry', async ({ db, download, world }) => {
    const entries = await db.select().from(auditEntries).where(eq(auditEntries.action, 'data.export'));
    expect(entries.some((entry) => entry.actorId === world.users.learner.id && entry.learnerId === world.users.learner.id)).toBe(true);
    const files = unzipSync((await download('learner')).rawPayload);
    expect(json<{ action: string }[]>(files, 'audit-entries.json').map((entry) => entry.action)).toContain('data.export');
  });

  it('gives another learner only their own data', async ({ download, world }) => {
    const files = unzipSync((await download('otherLearner')).rawPayload);
    expect(json<{ email: string }>(files, 'account.json').email).toBe(world.users.otherLearner.email);
    expect(json(files, 'certificates.json')).toEqual([]);
    const everything = Object.values(files).map((bytes) => Buffer.from(bytes).toString('latin1')).join('\n');
    expect(everything).not.toContain(world.users.learner.email);
    expect(everything).not.toContain(world.certificate.number);
  });

  it('refuses a staff account, and writes nothing', async ({ download, entriesBy, portal, world }) => {
    const before = await entriesBy(world.users.owner.id);
    const answer = await download('owner');
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(MESSAGES.personalData.staffRefused);
    expect(await entriesBy(world.users.owner.id)).toEqual(before);
    await expect(portal.caller(sessionOf(world.users.owner)).personalData.erase({ password: TEST_PASSWORD })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('erasure', () => {
  it('with a wrong password changes nothing', async ({ db, entriesBy, portal, world }) => {
    const before = await entriesBy(world.users.learner.id);
    await expect(portal.caller(sessionOf(world.users.learner)).personalData.erase({ password: 'not my password' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: MESSAGES.personalData.passwordWrong,
    });
    const [user] = await db.select().from(users).where(eq(users.id, world.users.learner.id));
    expect(user!.email).toBe(world.users.learner.email);
    expect(user!.erasedAt).toBeNull();
    expect(await db.select().from(profiles).where(eq(profiles.userId, world.users.learner.id))).toHaveLength(1);
    expect(await entriesBy(world.users.learner.id)).toEqual(before);
  });

  it('is refused after five wrong passwords, even with the right one, and changes nothing', async ({ db, entriesBy, portal }) => {
    const learner = await createUser(db, { approvedAt: new Date() });
    const erase = (password: string) => portal.caller(sessionOf(learner)).personalData.erase({ password });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(erase('not my password')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    await expect(erase(TEST_PASSWORD)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', message: MESSAGES.personalData.tooManyTries(15) });
    const [user] = await db.select().from(users).where(eq(users.id, learner.id));
    expect(user!.erasedAt).toBeNull();
    expect(await entriesBy(learner.id)).toEqual([]);
  });

  it('closes the account, removes the rest and keeps the certificate with the records behind it until the retention date', async ({ db, portal, world }) => {
    const learner = world.users.learner;
    // A signed-in session, to see it end.
    const login = await portal.app.inject({ method: 'POST', url: '/api/user/login', payload: { email: learner.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const { accessToken, refreshToken } = login.json() as { accessToken: string; refreshToken: string };
    const asSession = () => portal.app.inject({ method: 'GET', url: '/api/userCourses/user', headers: { authorization: `Bearer ${accessToken}` } });
    expect((await asSession()).statusCode).toBe(200);
    // A mail queued to them, with its send job's outbox row.
    const queued = await db.transaction((tx) => queueMail(tx, { to: learner.email, subject: 'Waiting', text: 'A queued mail' }));
    // A registrar's check leaves the profile's identity history behind, which the erasure removes.
    const [{ identityVersion }] = (await db.select().from(profiles).where(eq(profiles.userId, learner.id))) as [typeof profiles.$inferSelect];
    await portal.caller(sessionOf(world.users.registrar)).identity.verify({ userId: learner.id, version: identityVersion, duplicatesAcknowledged: true });
    expect(await db.select().from(profileIdentityVersions).where(eq(profileIdentityVersions.userId, learner.id))).not.toEqual([]);

    const terms = await portal.caller(sessionOf(learner)).personalData.retention();
    expect(terms.retentionYears).toBe(10);
    expect(terms.certificates.map((item) => item.number)).toContain(world.certificate.number);

    const result = await portal.caller(sessionOf(learner), '203.0.113.9').personalData.erase({ password: TEST_PASSWORD });
    const today = new Date().toISOString().slice(0, 10);
    expect(result.retainUntil).toBe(`${Number(today.slice(0, 4)) + 10}${today.slice(4)}`);
    expect(result.kept.certificates.map((item) => item.number)).toContain(world.certificate.number);
    expect(result.removed).toMatchObject({ profile: true, documents: 3, offlineDownloads: 1 });
    expect(result.removed.mails).toBeGreaterThanOrEqual(1);

    // Sessions end at once; the old e-mail and password sign in no more; the session cannot renew.
    expect((await asSession()).statusCode).toBe(401);
    expect((await portal.app.inject({ method: 'POST', url: '/api/user/login', payload: { email: learner.email, password: TEST_PASSWORD } })).statusCode).toBe(401);
    expect((await portal.app.inject({ method: 'POST', url: '/api/user/refresh-token', payload: { refreshToken } })).statusCode).toBe(401);
    expect((await db.select().from(refreshTokens).where(eq(refreshTokens.userId, learner.id))).every((token) => token.revokedAt !== null)).toBe(true);

    // The account: name, e-mail, mobile replaced; the e-mail is free again.
    const [account] = await db.select().from(users).where(eq(users.id, learner.id));
    expect(account).toMatchObject({ firstName: 'Erased', lastName: 'learner', mobile: '', email: `erased-${learner.id}@erased.invalid`, certificateReminders: false, retainUntil: result.retainUntil });
    expect(account!.erasedAt).not.toBeNull();
    expect(await db.select().from(mails).where(eq(mails.to, learner.email))).toHaveLength(0);
    // No send job is left naming a mail that is gone.
    expect(await db.select().from(jobOutbox).where(eq(jobOutbox.id, queued.id))).toEqual([]);
    const again = await portal.caller().auth.register({ title: 'Mr', firstName: 'Ravi', lastName: 'Menon', mobile: '9876543210', email: learner.email, password: 'a brand new harbour' });
    expect(again.message).toBeTruthy();

    // Removed: profile and its files, the enrolment, attempts and watching of the course without a certificate, downloads, mail.
    expect(await db.select().from(profiles).where(eq(profiles.userId, learner.id))).toHaveLength(0);
    expect(await db.select().from(profileIdentityVersions).where(eq(profileIdentityVersions.userId, learner.id))).toEqual([]);
    for (const [area, name] of [
      ['profile_pictures', learnerProfile.profilePictureFile],
      ['id_documents', learnerProfile.idDocumentFile],
      ['signatures', learnerProfile.signatureFile],
    ] as const) {
      expect(await portal.runtime.files.size(area, name)).toBeUndefined();
    }
    const courseIds = (rows: { courseId: string }[]) => rows.map((row) => row.courseId);
    expect(courseIds(await db.select().from(enrolments).where(eq(enrolments.userId, learner.id)))).not.toContain(world.course.courseId);
    expect(courseIds(await db.select().from(testAttempts).where(eq(testAttempts.userId, learner.id)))).not.toContain(world.course.courseId);
    const watchedVideos = (await db.select().from(watchProgress).where(eq(watchProgress.userId, learner.id))).map((row) => row.videoId);
    expect(watchedVideos).not.toContain(world.course.videoId);
    expect(await db.select().from(offlineDownloads).where(eq(offlineDownloads.userId, learner.id))).toHaveLength(0);

    // Kept: the certificate with its holder snapshot and PDF, its course's enrolment, attempt and watching.
    const [kept] = await db.select().from(certificates).where(eq(certificates.id, world.certificate.id));
    expect(kept!.holderName).toBeTruthy();
    expect(await portal.runtime.files.size('certificates', kept!.pdfFile!)).toBeGreaterThan(0);
    expect(courseIds(await db.select().from(enrolments).where(eq(enrolments.userId, learner.id)))).toContain(world.certificate.courseId);
    expect(courseIds(await db.select().from(testAttempts).where(eq(testAttempts.userId, learner.id)))).toContain(world.certificate.courseId);
    expect(watchedVideos.length).toBeGreaterThan(0);
    const evidence = await portal.caller(sessionOf(world.users.auditor)).evidence.certificate({ certificateId: world.certificate.id });
    expect(evidence.attempts.some((attempt) => attempt.passed)).toBe(true);
    expect(evidence.parts.some((part) => part.completedAt !== null)).toBe(true);

    // Staff see the request and its outcome in the trail, and the chain holds.
    const [entry] = await db.select().from(auditEntries).where(eq(auditEntries.action, 'data.erasure'));
    expect(entry).toMatchObject({ actorId: learner.id, learnerId: learner.id, address: '203.0.113.9', subjectType: 'user', subjectId: learner.id });
    expect(entry!.after).toMatchObject({ outcome: 'erased', retainUntil: result.retainUntil, kept: { certificates: [expect.objectContaining({ number: world.certificate.number })] } });
    expect((await checkAuditChain(db)).brokenAt).toBeNull();

    // A second request finds nothing left to erase.
    await expect(portal.caller(sessionOf(learner)).personalData.erase({ password: TEST_PASSWORD })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('keeps the records until their retention ends, then the scheduled purge removes them and their files', async ({ db, portal, world }) => {
    const learnerId = world.users.learner.id;
    const [kept] = await db.select().from(certificates).where(eq(certificates.id, world.certificate.id));
    const [account] = await db.select().from(users).where(eq(users.id, learnerId));
    expect(await purgeEndedRetention(portal.runtime, account!.retainUntil!)).toBe(0);
    const dayAfter = new Date(Date.parse(`${account!.retainUntil!}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await purgeEndedRetention(portal.runtime, dayAfter)).toBe(1);
    expect(await db.select().from(users).where(eq(users.id, learnerId))).toHaveLength(0);
    expect(await db.select().from(certificates).where(eq(certificates.userId, learnerId))).toHaveLength(0);
    expect(await db.select().from(testAttempts).where(eq(testAttempts.userId, learnerId))).toHaveLength(0);
    expect(await portal.runtime.files.size('certificates', kept!.pdfFile!)).toBeUndefined();
    const [entry] = await db.select().from(auditEntries).where(eq(auditEntries.action, 'data.purge'));
    expect(entry).toMatchObject({ actorId: null, learnerId, subjectId: learnerId });
    expect((await checkAuditChain(db)).brokenAt).toBeNull();
  });
});

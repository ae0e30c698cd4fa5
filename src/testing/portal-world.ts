import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { offlinePartFetches, trainingVideos, trainingVideoSets, watchProgress } from '../server/db/schema.ts';
import { createCourse, createEnrolment, createUser, sessionOf } from './factories.ts';
import { makeClip } from './media.ts';
import { form, JPEG, PDF, PNG, PROFILE_SPEC_FIELDS, type TFormPart } from './multipart.ts';
import type { TestPortal } from './test-runtime.ts';

type TUser = Awaited<ReturnType<typeof createUser>>;

/** The kinds of caller every procedure and route is tried as: visitors, learners, and each staff role (decision 067). */
export const CALLERS = ['anonymous', 'unverified', 'unapproved', 'learner', 'otherLearner', 'owner', 'registrar', 'instructor', 'auditor'] as const;
export type TCaller = (typeof CALLERS)[number];

/** Ids that name nothing: what "missing" answers are compared with. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The learner's own course: approved enrolment, its one part watched, training submitted, the test open. */
export type TLearnerCourse = { courseId: string; setId: string; videoId: string; testId: string; questionId: string; correctAnswer: string };

export type TWorldCertificate = { id: string; number: string; courseId: string; pdfUrl: string };

/**
 * One seeded portal with something of every kind: the callers, the learner's own things (profile
 * with real files, a course whose training is done and whose test is open) and makers of fresh
 * targets, so no call depends on another having run first (a call that changes something gets a
 * target of its own).
 */
export type TWorld = {
  users: Record<Exclude<TCaller, 'anonymous'>, TUser> & {
    /** Signs in with TEST_PASSWORD in the login rows. */
    signIn: TUser;
  };
  course: TLearnerCourse;
  /** The administrator's course with its image (a public file). */
  imageCourse: { id: string; imageUrl: string };
  /** The learner's profile picture, as the signed link the learner's profile gives. */
  learnerPictureUrl: string;
  /** A video small enough to upload quickly. */
  clip: Buffer;
  /** The learner's certificate of a course they passed, its PDF rendered. */
  certificate: TWorldCertificate;
  make: {
    course(options?: { active?: boolean }): Promise<{ id: string }>;
    learnerCourse(): Promise<TLearnerCourse>;
    unapprovedUser(options?: { verified?: boolean }): Promise<{ id: string; email: string }>;
    /** A member of staff (an instructor with an authenticator app): a target for staff management. */
    staffMember(): Promise<{ id: string; email: string }>;
    pendingEnrolment(): Promise<{ id: string }>;
    test(published: boolean): Promise<{ id: string }>;
    failedVideo(): Promise<{ id: string; setId: string }>;
    /** A course the learner is in training on: approved, its one part the clip, uploaded and transcoded as an administrator would. */
    playerCourse(title: string): Promise<{ id: string }>;
    /** Another course the learner passes, and its certificate once the PDF is rendered. */
    certificate(): Promise<TWorldCertificate>;
    /** The learner's download of their course for offline study, its part fetched ten minutes ago. */
    offlineDownload(): Promise<{ id: string; recordKey: string; videoId: string }>;
  };
  /** Authorization header for a caller (none for anonymous). */
  headers(caller: TCaller): Record<string, string>;
};

export const courseFormParts = (overrides: Record<string, string> = {}): TFormPart[] =>
  Object.entries({
    title: 'Advanced Fire Fighting',
    description: 'Fire fighting for officers.',
    duration: '4 days',
    price: '5200',
    category: 'STCW',
    subject: JSON.stringify(['Fire control']),
    ...overrides,
  }).map(([name, value]) => ({ name, value }));

export const profileFormParts = (): TFormPart[] => [
  ...Object.entries(PROFILE_SPEC_FIELDS).map(([name, value]) => ({ name, value })),
  { name: 'profilePicture', file: PNG, filename: 'me.png', type: 'image/png' },
  { name: 'IdDocument', file: PDF, filename: 'aadhaar.pdf', type: 'application/pdf' },
  { name: 'signature', file: JPEG, filename: 'sign.jpg', type: 'image/jpeg' },
];

const QUESTION = { questionText: 'Which extinguisher suits an electrical fire?', options: ['CO2', 'Water', 'Foam', 'Sand'], correctAnswer: 'CO2' };

export async function seedWorld(portal: TestPortal): Promise<TWorld> {
  const db = portal.runtime.db;
  const now = new Date();
  const users = {
    unverified: await createUser(db, { verifiedAt: null }),
    unapproved: await createUser(db),
    learner: await createUser(db, { approvedAt: now }),
    otherLearner: await createUser(db, { approvedAt: now }),
    owner: await createUser(db, { role: 'admin', staffRole: 'owner', approvedAt: now }),
    registrar: await createUser(db, { role: 'admin', staffRole: 'registrar', approvedAt: now }),
    instructor: await createUser(db, { role: 'admin', staffRole: 'instructor', approvedAt: now }),
    auditor: await createUser(db, { role: 'admin', staffRole: 'auditor', approvedAt: now }),
    signIn: await createUser(db, { approvedAt: now }),
  };
  const headers = (caller: TCaller): Record<string, string> =>
    caller === 'anonymous' ? {} : { authorization: portal.authorization(users[caller]) };
  const admin = portal.caller(sessionOf(users.owner));

  const test = async (courseId: string, published: boolean) => {
    const made = await admin.tests.create({ courseId, title: `Test ${randomUUID().slice(0, 6)}`, passMark: 50, questions: [QUESTION] });
    if (published) await admin.tests.publish({ testId: made.test.id });
    return made.test;
  };

  const learnerCourse = async (): Promise<TLearnerCourse> => {
    const course = await createCourse(db);
    await createEnrolment(db, { userId: users.learner.id, courseId: course.id, status: 'approved', decidedAt: now, trainingSubmittedAt: now });
    const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: 'Basic safety' }).returning();
    const [video] = await db
      .insert(trainingVideos)
      .values({
        setId: set!.id,
        serial: 1,
        originalName: 'part-1.mp4',
        sourceFile: `${randomUUID()}.mp4`,
        status: 'ready',
        durationSeconds: 60,
        renditions: [{ height: 360, file: `${randomUUID()}.mp4`, bitrateKbps: 500 }],
      })
      .returning();
    await db.insert(watchProgress).values({ userId: users.learner.id, videoId: video!.id, watchedIntervals: [[0, 60]], watchedSeconds: 60, completedAt: now });
    const published = await test(course.id, true);
    await portal.caller(sessionOf(users.learner)).tests.take({ courseId: course.id });
    return { courseId: course.id, setId: set!.id, videoId: video!.id, testId: published.id, questionId: published.questions[0]!.id, correctAnswer: QUESTION.correctAnswer };
  };

  const certificate = async (): Promise<TWorldCertificate> => {
    const course = await learnerCourse();
    const learner = portal.caller(sessionOf(users.learner));
    await learner.tests.submit({ testId: course.testId, answers: [{ questionId: course.questionId, selectedAnswer: course.correctAnswer }] });
    await portal.drainJobs();
    const issued = await learner.certificates.forCourse({ courseId: course.courseId });
    if (!issued.pdfUrl) throw new Error(`seeding a certificate: its PDF was not rendered (${issued.status})`);
    return { id: issued.id, number: issued.number, courseId: course.courseId, pdfUrl: issued.pdfUrl };
  };

  const upload = form([...courseFormParts(), { name: 'courseImg', file: PNG, filename: 'cover.png', type: 'image/png' }]);
  const created = await portal.app.inject({ method: 'POST', url: '/api/courses', headers: { ...upload.headers, ...headers('owner') }, payload: upload.payload });
  if (created.statusCode !== 201) throw new Error(`seeding a course failed: ${created.body}`);
  const imageCourse = { id: created.json().data._id as string, imageUrl: created.json().data.courseImg.url as string };

  const profileForm = form(profileFormParts());
  const profile = await portal.app.inject({ method: 'POST', url: '/api/userProfile', headers: { ...profileForm.headers, ...headers('learner') }, payload: profileForm.payload });
  if (profile.statusCode !== 201) throw new Error(`seeding a profile failed: ${profile.body}`);

  const clipDir = mkdtempSync(path.join(tmpdir(), 'world-clip-'));
  const clip = readFileSync(await makeClip(clipDir, 'clip.mp4', { width: 160, height: 120, seconds: 1 }));
  rmSync(clipDir, { recursive: true, force: true });

  const world: TWorld = {
    users,
    course: await learnerCourse(),
    imageCourse,
    learnerPictureUrl: profile.json().data.profilePicture.url as string,
    clip,
    certificate: await certificate(),
    headers,
    make: {
      certificate,
      course: async ({ active = true } = {}) => ({ id: (await createCourse(db, { isActive: active })).id }),
      learnerCourse,
      staffMember: async () => {
        const member = await createUser(db, { role: 'admin', staffRole: 'instructor', approvedAt: new Date() });
        return { id: member.id, email: member.email };
      },
      unapprovedUser: async ({ verified = true } = {}) => {
        const user = await createUser(db, verified ? {} : { verifiedAt: null });
        return { id: user.id, email: user.email };
      },
      pendingEnrolment: async () => {
        const [requester, course] = await Promise.all([createUser(db, { approvedAt: now }), createCourse(db)]);
        return { id: (await createEnrolment(db, { userId: requester.id, courseId: course.id })).id };
      },
      test: async (published) => ({ id: (await test((await createCourse(db)).id, published)).id }),
      playerCourse: async (title) => {
        const course = await createCourse(db, { title });
        await createEnrolment(db, { userId: users.learner.id, courseId: course.id, status: 'approved', decidedAt: new Date() });
        const upload = form([
          { name: 'courseId', value: course.id },
          { name: 'title', value: title },
          { name: 'trainingVideo', file: clip, filename: 'part-1.mp4', type: 'video/mp4' },
        ]);
        const uploaded = await portal.app.inject({ method: 'POST', url: '/api/trainingVideo', headers: { ...upload.headers, ...headers('owner') }, payload: upload.payload });
        if (uploaded.statusCode !== 201) throw new Error(`seeding a training video failed: ${uploaded.body}`);
        await portal.drainJobs();
        return { id: course.id };
      },
      offlineDownload: async () => {
        const pack = await portal.caller(sessionOf(users.learner)).training.offlinePackage({ courseId: world.course.courseId, height: 360 });
        await db.insert(offlinePartFetches).values({ downloadId: pack.downloadId, videoId: world.course.videoId, fetchedAt: new Date(Date.now() - 600_000) });
        return { id: pack.downloadId, recordKey: pack.recordKey, videoId: world.course.videoId };
      },
      failedVideo: async () => {
        const course = await createCourse(db);
        const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: 'Spare' }).returning();
        const [video] = await db
          .insert(trainingVideos)
          .values({ setId: set!.id, serial: 1, originalName: 'broken.mp4', sourceFile: `${randomUUID()}.mp4`, status: 'failed', error: 'The file is not a video.' })
          .returning();
        return { id: video!.id, setId: set!.id };
      },
    },
  };
  // The seeding's own mails and jobs run before anything is counted.
  await portal.drainJobs();
  return world;
}

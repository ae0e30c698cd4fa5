import { randomInt, randomUUID } from 'node:crypto';
import type { Executor } from '../server/db/client.ts';
import { courses, enrolments, profiles, secondFactors, trainingVideoSets, trainingVideos, users } from '../server/db/schema.ts';
import { testTotpSecretFor } from './second-factor.ts';
import type { FileStorage } from '../server/lib/files/storage.ts';
import type { TSessionUser } from '../server/lib/session-user.ts';
import { imageOf } from './images.ts';

/**
 * The password every factory user has, and its argon2id hash at the production cost, computed
 * once here so tests do not spend a hash per user.
 */
export const TEST_PASSWORD = 'Seafarer#2024';
export const TEST_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$MmxvoEbHUmtYrIiIjPRtjg$LMIdGec2TomUV56Bhwz+if0kthzEA2VBEkVbLGhRnyI';

/**
 * Test data with unique values, so tests never depend on each other's rows. A member of staff has
 * an authenticator app whose codes the tests compute (`freshTestCodeFor(email)`), unless
 * `options.secondFactor` is false.
 */
export async function createUser(db: Executor, overrides: Partial<typeof users.$inferInsert> = {}, options: { secondFactor?: boolean } = {}) {
  const unique = randomUUID().slice(0, 8);
  const [user] = await db
    .insert(users)
    .values({
      title: 'Mr',
      firstName: 'Arjun',
      lastName: `Nair ${unique}`,
      mobile: '9876543210',
      email: `seafarer-${unique}@example.com`,
      passwordHash: TEST_PASSWORD_HASH,
      role: 'learner',
      verifiedAt: new Date(),
      ...overrides,
      // A member of staff is an owner unless the test says which role.
      staffRole: overrides.staffRole ?? (overrides.role === 'admin' ? 'owner' : null),
    })
    .returning();
  if (user!.role === 'admin' && options.secondFactor !== false) {
    await db.insert(secondFactors).values({
      userId: user!.id,
      kind: 'totp',
      label: 'Authenticator app',
      totpSecret: testTotpSecretFor(user!.email),
      confirmedAt: new Date(),
    });
  }
  return user!;
}

/** The session a request by this user would carry (for tRPC callers). */
export function sessionOf(user: typeof users.$inferSelect): TSessionUser {
  return {
    id: user.id,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`.trim(),
    role: user.role,
    staffRole: user.staffRole,
    verified: user.verifiedAt !== null,
    approved: user.approvedAt !== null,
    // Staff in tests have signed in with their second factor.
    secondFactor: user.role === 'admin' ? 'passed' : null,
  };
}

export async function createCourse(db: Executor, overrides: Partial<typeof courses.$inferInsert> = {}) {
  const unique = randomUUID().slice(0, 8);
  const [course] = await db
    .insert(courses)
    .values({
      title: `Basic Safety Training ${unique}`,
      description: 'Personal survival techniques, fire prevention and first aid.',
      duration: '5 days',
      price: 4500,
      category: 'STCW',
      subjects: ['Personal survival', 'Fire fighting'],
      ...overrides,
    })
    .returning();
  return course!;
}

/** A fresh INDOS number in its format (two digits, two letters, four digits). */
export function indosNumber(): string {
  const digits = () => String(randomInt(0, 10));
  const letter = () => String.fromCharCode(65 + randomInt(0, 26));
  return `${digits()}${digits()}${letter()}${letter()}${Array.from({ length: 4 }, digits).join('')}`;
}

/**
 * A profile row for a user, with file names that need not exist on disk (lists and searches);
 * tests of files create profiles through the upload route instead. Its identity is verified (by
 * no one in particular) unless the overrides say otherwise, so certificates print its values.
 */
export async function createProfileRow(
  db: Executor,
  userId: string,
  overrides: Partial<typeof profiles.$inferInsert> = {},
) {
  const unique = randomUUID().slice(0, 8).toUpperCase();
  const [profile] = await db
    .insert(profiles)
    .values({
      userId,
      name: `Arjun Nair ${unique}`,
      gradeNumber: 'G-2',
      phone: '+919876543210',
      dateOfBirth: '1990-04-12',
      passportNumber: `P${unique}`,
      passportExpiryDate: '2034-01-31',
      indosNo: indosNumber(),
      cdcNumber: `CDC${unique}`,
      cdcExpiryDate: '2033-06-30',
      idType: 'aadhaar',
      streetAddress: '12 Marine Drive',
      city: 'Mumbai',
      state: 'Maharashtra',
      country: 'India',
      zipCode: '400002',
      profilePictureFile: `${randomUUID()}.png`,
      idDocumentFile: `${randomUUID()}.pdf`,
      signatureFile: `${randomUUID()}.png`,
      consentAcceptedAt: new Date(),
      identityState: 'verified',
      identityCheckedAt: new Date(),
      ...overrides,
    })
    .returning();
  return profile!;
}

/** The smallest PDF a reader opens: one empty page. */
const EMPTY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * A profile row whose picture, signature and ID document exist in storage: for browser tests,
 * where every screen that lists profiles (the administrators' User Profiles, shared by the run's
 * tests) loads their pictures.
 */
export async function createProfileWithFiles(
  db: Executor,
  files: FileStorage,
  userId: string,
  overrides: Partial<typeof profiles.$inferInsert> = {},
) {
  const profile = await createProfileRow(db, userId, overrides);
  const picture = await imageOf('png', 64, 64);
  await files.put('profile_pictures', profile.profilePictureFile, picture);
  await files.put('signatures', profile.signatureFile, picture);
  await files.put('id_documents', profile.idDocumentFile, EMPTY_PDF);
  return profile;
}

/** A learner's enrolment in a course (pending unless told otherwise). */
export async function createEnrolment(
  db: Executor,
  values: { userId: string; courseId: string } & Partial<typeof enrolments.$inferInsert>,
) {
  const [enrolment] = await db.insert(enrolments).values(values).returning();
  return enrolment!;
}

/** A course whose training has a ready part (rows only, no media) of each given length, in order. */
export async function createReadyTraining(db: Executor, durations: number[]) {
  const course = await createCourse(db);
  const [set] = await db.insert(trainingVideoSets).values({ courseId: course.id, title: `Training ${course.title}` }).returning();
  const videos = await db
    .insert(trainingVideos)
    .values(
      durations.map((durationSeconds, index) => ({
        setId: set!.id,
        serial: index + 1,
        originalName: `Part ${index + 1}`,
        sourceFile: `${randomUUID()}.mp4`,
        status: 'ready' as const,
        durationSeconds,
        renditions: [{ height: 360, file: `${randomUUID()}.mp4`, bitrateKbps: 500 }],
      })),
    )
    .returning();
  return { course, set: set!, videos };
}

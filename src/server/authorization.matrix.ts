/**
 * The authorization matrix: for every tRPC procedure and every HTTP route, the answer each kind of
 * caller gets (authorization.int.test.ts walks the root router and the app's routes, and fails
 * on any procedure or route without an entry here). Decision 027.
 *
 * An outcome is 'ok' (a 2xx answer: the call did what it is for), or the status of the refusal.
 * 401/403/404 are the authorization answers; 400 and 409 appear where the call reaches its rule
 * (a wrong code, an attempt the caller does not have) whoever calls. Every refused call is
 * checked to write nothing: no row, no file, no job.
 *
 * `missing` marks an owner-scoped entry (someone's profile, enrolment, training, attempt, file):
 * the same call naming nothing. Every signed-in caller that does not own the thing must get
 * exactly the answer (status and message) the missing one gets.
 */
import { randomUUID } from 'node:crypto';
import { SESSION_CALL_HEADER } from '../shared/constants.ts';
import { TEST_PASSWORD } from '../testing/factories.ts';
import { staffMay, type TStaffPermission } from '../shared/staff-roles.ts';
import { form, PNG, type TFormPart } from '../testing/multipart.ts';
import { offlineRecordSignature } from './modules/training/offline-credit.ts';
import { CALLERS, courseFormParts, MISSING_ID, profileFormParts, type TCaller, type TWorld } from '../testing/portal-world.ts';

export type TOutcome = 'ok' | 400 | 401 | 403 | 404 | 409;
export type TExpect = Record<TCaller, TOutcome>;

/** A tRPC call's input (the procedure's type decides GET or POST). */
export type TProcedureCall = { input?: unknown };
/** An HTTP request; `url` with its parameters filled in. */
export type TRouteCall = { url: string; json?: unknown; parts?: TFormPart[]; headers?: Record<string, string> };

export type TEntry<C> = {
  expect: TExpect;
  /** The call as the given caller makes it; it may first make a target of its own. */
  call?: (world: TWorld, caller: TCaller) => C | Promise<C>;
  /** Owner-scoped: the same call naming a missing thing (see above). */
  missing?: (world: TWorld) => C | Promise<C>;
};

const same = (outcome: TOutcome): TExpect => Object.fromEntries(CALLERS.map((caller) => [caller, outcome])) as TExpect;
/** Anyone, signed in or not. */
const PUBLIC = same('ok');
/** Any signed-in user; a visitor gets 401. */
const SIGNED_IN: TExpect = { ...same('ok'), anonymous: 401 };
/** The staff roles, the matrix's last four columns (decision 067). */
const STAFF = ['owner', 'registrar', 'instructor', 'auditor'] as const satisfies readonly TCaller[];
/** Every member of staff answered alike. */
const allStaff = (outcome: TOutcome) => Object.fromEntries(STAFF.map((role) => [role, outcome])) as Pick<TExpect, (typeof STAFF)[number]>;
/**
 * Staff whose role holds the permission: a visitor gets 401, learners 403, and staff whose role
 * lacks it 403 too.
 */
const staff = (permission: TStaffPermission): TExpect => ({
  ...same(403),
  anonymous: 401,
  ...Object.fromEntries(STAFF.filter((role) => staffMay(role, permission)).map((role) => [role, 'ok'])),
});
/**
 * Only the learner who owns the thing, and staff who read accounts; other signed-in callers
 * (the instructor among them) get 404.
 */
const OWNER_OR_STAFF: TExpect = { ...same(404), anonymous: 401, learner: 'ok', ...Object.fromEntries(STAFF.filter((role) => staffMay(role, 'accounts.read')).map((role) => [role, 'ok'])) };
/**
 * The course's own learner: the one with an approved enrolment (the learner's course). Anyone
 * else signed in is told the course opens once their enrolment is approved (403); administrators
 * take no tests and submit no training. The ids are the course's, which is public: nothing here
 * names another learner's thing, so there is no missing one to compare with.
 */
const ENROLLED: TExpect = { ...same(403), anonymous: 401, learner: 'ok' };
/** A learner's download for offline study: theirs alone; to everyone else it is not there. */
const DOWNLOADER: TExpect = { ...same(404), anonymous: 401, learner: 'ok' };
/** Signed in with a refusal per caller, given as overrides. */
const signedIn = (overrides: Partial<TExpect>): TExpect => ({ ...SIGNED_IN, ...overrides });

const email = () => `matrix-${randomUUID().slice(0, 12)}@example.com`;
const registration = () => ({ title: 'Mr', firstName: 'Ravi', lastName: 'Menon', mobile: '9876543210', email: email(), password: 'anchorage harbour' });
const courseForm = (w: TWorld, courseId: string) => ({
  courseId,
  title: 'Advanced Fire Fighting',
  description: 'Fire fighting for officers.',
  duration: '4 days',
  price: 5200,
  category: 'STCW',
  subjects: ['Fire control'],
});
const answers = (c: { questionId: string; correctAnswer: string }) => [{ questionId: c.questionId, selectedAnswer: c.correctAnswer }];
/** A sync of one record the learner's device signed for a fresh download of their course. */
async function offlineSync(w: TWorld) {
  const download = await w.make.offlineDownload();
  const endedAt = Date.now() - 60_000;
  const record = { id: randomUUID(), seq: 1, videoId: download.videoId, from: 0, to: 10, startedAt: endedAt - 10_000, endedAt, playedMs: 10_000, prev: null };
  return { downloadId: download.id, records: [{ ...record, signature: offlineRecordSignature(download.recordKey, download.id, record) }] };
}
/** The learner's things for the learner; the same ids for everyone else (they own none of them). */
const learnersCourse = async (w: TWorld, caller: TCaller) => (caller === 'learner' ? w.make.learnerCourse() : w.course);

export const PROCEDURES: Record<string, TEntry<TProcedureCall>> = {
  'site.config': { expect: PUBLIC },

  'auth.register': { expect: PUBLIC, call: () => ({ input: registration() }) },
  // A wrong code, whoever asks.
  'auth.verifyOtp': { expect: same(400), call: (w) => ({ input: { email: w.users.unverified.email, otp: '000000' } }) },
  // Codes are limited per address: each call asks for a fresh account.
  'auth.resendOtp': { expect: PUBLIC, call: async (w) => ({ input: { email: (await w.make.unapprovedUser({ verified: false })).email } }) },
  'auth.login': { expect: PUBLIC, call: (w) => ({ input: { email: w.users.signIn.email, password: TEST_PASSWORD } }) },
  'auth.adminLogin': { expect: PUBLIC, call: (w) => ({ input: { email: w.users.owner.email, password: TEST_PASSWORD } }) },
  'auth.forgotPassword': { expect: PUBLIC, call: async (w) => ({ input: { email: (await w.make.unapprovedUser()).email } }) },
  'auth.resetPassword': {
    expect: same(400),
    call: (w) => ({ input: { email: w.users.signIn.email, otp: '000000', password: 'a new harbour pass' } }),
  },
  'auth.me': { expect: SIGNED_IN },
  'auth.adminSetupStatus': { expect: PUBLIC, call: () => ({ input: { token: 'a'.repeat(64) } }) },
  'auth.setupAdmin': { expect: same(400), call: () => ({ input: { ...registration(), password: 'a long admin passphrase', token: 'a'.repeat(64) } }) },
  // The second step of a sign-in answers only a challenge token the login signed: without one, 401 for anyone.
  'auth.secondFactor': { expect: same(401), call: () => ({ input: { challengeToken: 'x'.repeat(80), code: '123456' } }) },
  'auth.passkeySignInOptions': { expect: same(401), call: () => ({ input: { challengeToken: 'x'.repeat(80) } }) },
  'auth.enrolTotp': { expect: same(401), call: () => ({ input: { challengeToken: 'x'.repeat(80) } }) },
  'auth.confirmTotp': { expect: same(401), call: () => ({ input: { challengeToken: 'x'.repeat(80), code: '123456' } }) },
  'auth.passkeyEnrolmentOptions': { expect: same(401), call: () => ({ input: { challengeToken: 'x'.repeat(80) } }) },
  'auth.registerPasskey': { expect: same(401), call: () => ({ input: { challengeToken: 'x'.repeat(80), response: { id: 'x' } } }) },

  // The account's own security page: anyone signed in, about their own account.
  'security.overview': { expect: SIGNED_IN },
  'security.startTotp': { expect: SIGNED_IN, call: () => ({ input: {} }) },
  'security.confirmTotp': { expect: { ...same(400), anonymous: 401 }, call: () => ({ input: { code: '000000' } }) },
  'security.passkeyOptions': { expect: SIGNED_IN, call: () => ({ input: {} }) },
  'security.registerPasskey': { expect: { ...same(400), anonymous: 401 }, call: () => ({ input: { response: { id: 'x' } } }) },
  'security.removeFactor': { expect: { ...same(404), anonymous: 401 }, call: () => ({ input: { factorId: MISSING_ID } }) },
  // Staff have an authenticator app; learners have no factor to stand in for (409).
  'security.regenerateRecoveryCodes': { expect: { ...same(409), anonymous: 401, ...allStaff('ok') }, call: () => ({ input: {} }) },
  'security.resetMemberFactors': { expect: staff('staff.manage'), call: async (w) => ({ input: { userId: (await w.make.staffMember('instructor')).id } }) },

  'users.listUnapproved': { expect: staff('accounts.read') },
  'users.listApproved': { expect: staff('accounts.read') },
  'users.approve': { expect: staff('accounts.approve'), call: async (w) => ({ input: { userId: (await w.make.unapprovedUser()).id } }) },

  'profiles.mine': { expect: SIGNED_IN },
  'profiles.byUser': {
    expect: OWNER_OR_STAFF,
    call: (w) => ({ input: { userId: w.users.learner.id } }),
    missing: () => ({ input: { userId: MISSING_ID } }),
  },
  'profiles.list': { expect: staff('accounts.read') },

  'identity.queue': { expect: staff('accounts.read') },
  'identity.view': { expect: staff('accounts.read'), call: (w) => ({ input: { userId: w.users.learner.id } }) },
  // Each caller checks a fresh profile of their own, at the version they saw.
  'identity.verify': { expect: staff('identity.check'), call: async (w) => ({ input: await w.make.awaitingProfile() }) },
  'identity.return': {
    expect: staff('identity.check'),
    call: async (w) => ({ input: { ...(await w.make.awaitingProfile()), reason: 'The photograph is not the passport holder.' } }),
  },

  'courses.catalogue': { expect: PUBLIC },
  'courses.adminList': { expect: staff('courses.read') },
  'courses.adminGet': { expect: staff('courses.read'), call: (w) => ({ input: { courseId: w.course.courseId } }) },
  'courses.update': { expect: staff('courses.edit'), call: async (w) => ({ input: courseForm(w, (await w.make.course()).id) }) },
  'courses.activate': { expect: staff('courses.edit'), call: async (w) => ({ input: { courseId: (await w.make.course({ active: false })).id } }) },
  'courses.deactivate': { expect: staff('courses.edit'), call: async (w) => ({ input: { courseId: (await w.make.course()).id } }) },
  'courses.certificateSettings': { expect: staff('courses.read'), call: (w) => ({ input: { courseId: w.course.courseId } }) },
  'courses.updateCertificateSettings': {
    expect: staff('courses.edit'),
    call: async (w) => ({
      input: { courseId: (await w.make.course()).id, code: 'FPFF', approvalNumber: 'DGS/TC/2026/017', validityMonths: 60, refresherCourseId: null, testRequiresApprovedProfile: false },
    }),
  },

  'enrolments.dashboard': { expect: SIGNED_IN },
  'enrolments.mine': { expect: SIGNED_IN },
  // The course home is the enrolled learner's; to anyone else the course is not there.
  'enrolments.courseHome': {
    expect: { ...OWNER_OR_STAFF, ...allStaff(404) },
    call: (w) => ({ input: { courseId: w.course.courseId } }),
    missing: () => ({ input: { courseId: MISSING_ID } }),
  },
  'enrolments.request': {
    expect: signedIn({ unverified: 403, unapproved: 403, ...allStaff(403) }),
    call: async (w) => ({ input: { courseId: (await w.make.course()).id } }),
  },
  'enrolments.search': { expect: staff('enrolments.read') },
  'enrolments.accept': { expect: staff('enrolments.decide'), call: async (w) => ({ input: { enrolmentId: (await w.make.pendingEnrolment()).id } }) },
  'enrolments.reject': { expect: staff('enrolments.decide'), call: async (w) => ({ input: { enrolmentId: (await w.make.pendingEnrolment()).id } }) },

  'training.sets': { expect: staff('courses.read') },
  'training.reorder': {
    expect: staff('courses.edit'),
    call: async (w) => {
      const video = await w.make.failedVideo();
      return { input: { setId: video.setId, videoIds: [video.id] } };
    },
  },
  'training.deleteVideo': { expect: staff('courses.edit'), call: async (w) => ({ input: { videoId: (await w.make.failedVideo()).id } }) },
  'training.retry': { expect: staff('courses.edit'), call: async (w) => ({ input: { videoId: (await w.make.failedVideo()).id } }) },
  // Administrators may watch (a preview); only learners submit.
  'training.player': { expect: { ...ENROLLED, ...allStaff('ok') }, call: (w) => ({ input: { courseId: w.course.courseId } }) },
  'training.heartbeat': { expect: { ...ENROLLED, ...allStaff('ok') }, call: (w) => ({ input: { videoId: w.course.videoId, from: 0, to: 1, position: 1 } }) },
  'training.submit': { expect: ENROLLED, call: (w) => ({ input: { setId: w.course.setId } }) },
  // Downloads for offline study: only to the course's learner; a download is its learner's alone.
  'training.offlinePackage': { expect: ENROLLED, call: (w) => ({ input: { courseId: w.course.courseId } }) },
  'training.offlineResume': {
    expect: DOWNLOADER,
    call: async (w) => ({ input: { downloadId: (await w.make.offlineDownload()).id } }),
    missing: () => ({ input: { downloadId: MISSING_ID } }),
  },
  'training.offlineStatus': { expect: SIGNED_IN, call: () => ({ input: { downloadIds: [MISSING_ID] } }) },
  'training.syncOffline': {
    expect: DOWNLOADER,
    call: async (w) => ({ input: await offlineSync(w) }),
    missing: async (w) => ({ input: { ...(await offlineSync(w)), downloadId: MISSING_ID } }),
  },

  'tests.create': {
    expect: staff('courses.edit'),
    call: async (w) => ({
      input: { courseId: (await w.make.course()).id, title: 'Fire safety', passMark: 60, questions: [{ questionText: 'Which?', options: ['a', 'b', 'c', 'd'], correctAnswer: 'a' }] },
    }),
  },
  'tests.list': { expect: staff('courses.read') },
  'tests.published': { expect: staff('courses.read') },
  'tests.publish': { expect: staff('courses.edit'), call: async (w) => ({ input: { testId: (await w.make.test(false)).id } }) },
  'tests.unpublish': { expect: staff('courses.edit'), call: async (w) => ({ input: { testId: (await w.make.test(true)).id } }) },
  'tests.updatePolicy': {
    expect: staff('courses.edit'),
    call: async (w) => ({ input: { testId: (await w.make.test(true)).id, questionsPerAttempt: null, attemptsAllowed: 2, waitMinutes: 5 } }),
  },
  'tests.results': { expect: staff('results.read') },
  'overview.figures': { expect: staff('overview.read') },
  'staff.list': { expect: staff('staff.manage') },
  'staff.invite': { expect: staff('staff.manage'), call: () => ({ input: { email: email(), staffRole: 'registrar' } }) },
  'staff.resendInvitation': { expect: staff('staff.manage'), call: async (w) => ({ input: { invitationId: (await w.make.invitation()).id } }) },
  'staff.revokeInvitation': { expect: staff('staff.manage'), call: async (w) => ({ input: { invitationId: (await w.make.invitation()).id } }) },
  'staff.changeRole': { expect: staff('staff.manage'), call: async (w) => ({ input: { userId: (await w.make.staffMember('auditor')).id, staffRole: 'instructor' } }) },
  'staff.deactivate': { expect: staff('staff.manage'), call: async (w) => ({ input: { userId: (await w.make.staffMember('instructor')).id } }) },
  'staff.reactivate': { expect: staff('staff.manage'), call: async (w) => ({ input: { userId: (await w.make.staffMember('instructor', { deactivated: true })).id } }) },
  // The invitation's page and form are public: the link is the key.
  'staff.invitation': { expect: PUBLIC, call: async (w) => ({ input: { token: (await w.make.invitation()).token } }) },
  'staff.join': {
    expect: PUBLIC,
    call: async (w) => ({ input: { token: (await w.make.invitation()).token, firstName: 'Meera', lastName: 'Iyer', password: 'a long harbour passphrase' } }),
  },
  'settings.get': { expect: staff('settings.manage') },
  'settings.update': { expect: staff('settings.manage'), call: () => ({ input: { retentionYears: 12 } }) },
  'certificates.reissue': { expect: staff('certificates.manage'), call: async (w) => ({ input: { certificateId: (await w.make.certificate()).id } }) },
  'certificates.mine': { expect: SIGNED_IN },
  'certificates.forCourse': {
    expect: { ...OWNER_OR_STAFF, ...allStaff(404) },
    call: (w) => ({ input: { courseId: w.certificate.courseId } }),
    missing: () => ({ input: { courseId: MISSING_ID } }),
  },
  'certificates.verify': { expect: PUBLIC, call: (w) => ({ input: { number: w.certificate.number } }) },
  'certificates.verifyByHolder': { expect: PUBLIC, call: (w) => ({ input: { number: w.certificate.number, dateOfBirth: '1990-04-12' } }) },
  'evidence.certificate': { expect: staff('certificates.read'), call: (w) => ({ input: { certificateId: w.certificate.id } }) },
  'audit.search': { expect: staff('audit.read'), call: () => ({ input: { action: 'certificate.revoke', from: '2026-01-01', to: '2036-12-31' } }) },
  'audit.people': { expect: staff('audit.read'), call: () => ({}) },
  'audit.checkChain': { expect: staff('audit.read'), call: () => ({ input: {} }) },
  'certificates.revoke': { expect: staff('certificates.manage'), call: async (w) => ({ input: { certificateId: (await w.make.certificate()).id, reason: 'Issued in error' } }) },
  'certificates.adminList': { expect: staff('certificates.read'), call: () => ({ input: { search: 'Nair', state: 'valid' } }) },
  'certificates.regulatorBatch': { expect: staff('certificates.read'), call: (w) => ({ input: { courseId: w.certificate.courseId, from: '2000-01-01', to: '2099-12-31' } }) },
  // A mutation without input, posted with an empty JSON object.
  'certificates.runRemindersNow': { expect: staff('certificates.manage'), call: () => ({ input: {} }) },
  'certificates.reminders': { expect: staff('certificates.read'), call: (w) => ({ input: { certificateId: w.certificate.id } }) },
  // A signed-in caller's own choice: there is no one else's to name.
  'certificates.reminderPreference': { expect: SIGNED_IN },
  'certificates.setReminderPreference': { expect: SIGNED_IN, call: () => ({ input: { remindersOn: true } }) },
  // The learner's own data: theirs alone, so nothing of anyone else's can be named; staff are refused.
  'personalData.retention': { expect: signedIn(allStaff(403)) },
  // Tried with a wrong password (the refusal every learner gets; the matrix keeps its accounts).
  'personalData.erase': {
    expect: signedIn({ unverified: 400, unapproved: 400, learner: 400, otherLearner: 400, ...allStaff(403) }),
    call: () => ({ input: { password: 'not the password' } }),
  },
  // A mutation (POST): it starts the learner's attempt.
  'tests.take': { expect: ENROLLED, call: async (w, caller) => ({ input: { courseId: (await learnersCourse(w, caller)).courseId } }) },
  'tests.status': { expect: ENROLLED, call: (w) => ({ input: { courseId: w.course.courseId } }) },
  'tests.grantAttempts': {
    expect: staff('courses.edit'),
    call: async (w) => ({ input: { userId: w.users.learner.id, courseId: (await w.make.learnerCourse()).courseId, attempts: 1 } }),
  },
  'tests.submit': {
    expect: ENROLLED,
    call: async (w, caller) => {
      const course = await learnersCourse(w, caller);
      return { input: { testId: course.testId, answers: answers(course) } };
    },
  },

  'contact.send': {
    expect: PUBLIC,
    call: () => ({ input: { name: 'Ravi Menon', email: email(), message: 'When does the next batch start?' } }),
  },
};

const multipart = (parts: TFormPart[]) => ({ parts });

export const ROUTES: Record<string, TEntry<TRouteCall>> = {
  'GET /healthz': { expect: PUBLIC, call: () => ({ url: '/healthz' }) },
  'GET /readyz': { expect: PUBLIC, call: () => ({ url: '/readyz' }) },
  'GET /robots.txt': { expect: PUBLIC, call: () => ({ url: '/robots.txt' }) },
  'GET /sitemap.xml': { expect: PUBLIC, call: () => ({ url: '/sitemap.xml' }) },
  'GET /manifest.webmanifest': { expect: PUBLIC, call: () => ({ url: '/manifest.webmanifest' }) },
  'GET /api/site-config': { expect: PUBLIC, call: () => ({ url: '/api/site-config' }) },
  'GET /api/docs': { expect: PUBLIC, call: () => ({ url: '/api/docs' }) },
  'GET /api/docs/openapi.json': { expect: PUBLIC, call: () => ({ url: '/api/docs/openapi.json' }) },

  // Stored files go by signed (or public) link, whoever holds it; without one, 404 as if missing.
  'GET /api/files/:area/:name': {
    expect: same(404),
    call: (w) => ({ url: w.learnerPictureUrl.replace(/\?.*$/, '') }),
    missing: () => ({ url: `/api/files/profilePicture/${MISSING_ID}.png` }),
  },
  'GET /api/uploads/:area/:name': { expect: PUBLIC, call: (w) => ({ url: new URL(w.imageCourse.imageUrl, 'http://portal').pathname }) },

  'POST /api/user/login': { expect: PUBLIC, call: (w) => ({ url: '/api/user/login', json: { email: w.users.signIn.email, password: TEST_PASSWORD } }) },
  'POST /api/user/login/second-factor': { expect: same(401), call: () => ({ url: '/api/user/login/second-factor', json: { challengeToken: 'x'.repeat(80), code: '123456' } }) },
  'POST /api/user/register': {
    expect: PUBLIC,
    call: () => {
      const { title, ...rest } = registration();
      return { url: '/api/user/register', json: { tittle: title, ...rest } };
    },
  },
  // A refresh token nobody was given, whoever sends it.
  'POST /api/user/refresh-token': { expect: same(401), call: () => ({ url: '/api/user/refresh-token', json: { refreshToken: 'x'.repeat(64) } }) },
  'POST /api/user/logout': { expect: PUBLIC, call: () => ({ url: '/api/user/logout', json: { refreshToken: 'x'.repeat(64) } }) },
  'POST /api/user/verify-otp': { expect: same(400), call: (w) => ({ url: '/api/user/verify-otp', json: { email: w.users.unverified.email, otp: '000000' } }) },
  'POST /api/user/resend-otp': {
    expect: PUBLIC,
    call: async (w) => ({ url: '/api/user/resend-otp', json: { email: (await w.make.unapprovedUser({ verified: false })).email } }),
  },
  'POST /api/user/forgotPasssword': {
    expect: PUBLIC,
    call: async (w) => ({ url: '/api/user/forgotPasssword', json: { email: (await w.make.unapprovedUser()).email } }),
  },
  'POST /api/user/resetPassword': {
    expect: same(400),
    call: (w) => ({ url: '/api/user/resetPassword', json: { email: w.users.signIn.email, otp: '000000', password: 'a new harbour pass' } }),
  },
  // The browser's session calls: without the refresh cookie there is no session to renew or end.
  'POST /api/session/refresh': { expect: same(401), call: () => ({ url: '/api/session/refresh', headers: { [SESSION_CALL_HEADER.name]: SESSION_CALL_HEADER.value } }) },
  'POST /api/session/logout': { expect: PUBLIC, call: () => ({ url: '/api/session/logout', headers: { [SESSION_CALL_HEADER.name]: SESSION_CALL_HEADER.value } }) },

  'GET /api/user/getUnapprovedUsers': { expect: staff('accounts.read'), call: () => ({ url: '/api/user/getUnapprovedUsers' }) },
  'GET /api/user/getApprovedUsers': { expect: staff('accounts.read'), call: () => ({ url: '/api/user/getApprovedUsers' }) },
  'POST /api/user/approve-user/:id': { expect: staff('accounts.approve'), call: async (w) => ({ url: `/api/user/approve-user/${(await w.make.unapprovedUser()).id}` }) },

  'GET /api/userProfile': { expect: signedIn({ unverified: 404, unapproved: 404, otherLearner: 404, ...allStaff(404) }), call: () => ({ url: '/api/userProfile' }) },
  'POST /api/userProfile': {
    expect: signedIn({ unverified: 403, learner: 409 }),
    call: () => ({ url: '/api/userProfile', ...multipart(profileFormParts()) }),
  },
  'PUT /api/userProfile/update': {
    expect: signedIn({ unverified: 403 }),
    call: () => ({ url: '/api/userProfile/update', ...multipart(profileFormParts()) }),
  },
  'GET /api/userProfile/getAllUserProfiles': { expect: staff('accounts.read'), call: () => ({ url: '/api/userProfile/getAllUserProfiles' }) },
  'GET /api/userProfile/user/:userId': {
    expect: OWNER_OR_STAFF,
    call: (w) => ({ url: `/api/userProfile/user/${w.users.learner.id}` }),
    missing: () => ({ url: `/api/userProfile/user/${MISSING_ID}` }),
  },

  'GET /api/courses/active': { expect: PUBLIC, call: () => ({ url: '/api/courses/active' }) },
  'GET /api/Courses/active': { expect: PUBLIC, call: () => ({ url: '/api/Courses/active' }) },
  'GET /api/courses': { expect: staff('courses.read'), call: () => ({ url: '/api/courses' }) },
  'POST /api/courses': {
    expect: staff('courses.edit'),
    call: () => ({ url: '/api/courses', ...multipart([...courseFormParts(), { name: 'courseImg', file: PNG, filename: 'cover.png', type: 'image/png' }]) }),
  },
  'PUT /api/courses/:id': { expect: staff('courses.edit'), call: async (w) => ({ url: `/api/courses/${(await w.make.course()).id}`, ...multipart(courseFormParts()) }) },
  'POST /api/courses/Deactive/:id': { expect: staff('courses.edit'), call: async (w) => ({ url: `/api/courses/Deactive/${(await w.make.course()).id}` }) },
  'PUT /api/courses/activate/:id': { expect: staff('courses.edit'), call: async (w) => ({ url: `/api/courses/activate/${(await w.make.course({ active: false })).id}` }) },

  'GET /api/userCourses/user': { expect: SIGNED_IN, call: () => ({ url: '/api/userCourses/user' }) },
  'POST /api/userCourses': {
    expect: signedIn({ unverified: 403, unapproved: 403, ...allStaff(403) }),
    call: async (w) => ({ url: '/api/userCourses', json: { courseId: (await w.make.course()).id } }),
  },
  'GET /api/userCourses/inactive': { expect: staff('enrolments.read'), call: () => ({ url: '/api/userCourses/inactive' }) },
  'PUT /api/userCourses/activate/:id': { expect: staff('enrolments.decide'), call: async (w) => ({ url: `/api/userCourses/activate/${(await w.make.pendingEnrolment()).id}` }) },
  'PUT /api/userCourses/deactivate/:id': { expect: staff('enrolments.decide'), call: async (w) => ({ url: `/api/userCourses/deactivate/${(await w.make.pendingEnrolment()).id}` }) },

  'POST /api/contact': { expect: PUBLIC, call: () => ({ url: '/api/contact', json: { name: 'Ravi Menon', email: email(), message: 'When does the next batch start?' } }) },

  'POST /api/trainingVideo': {
    expect: staff('courses.edit'),
    call: async (w) => ({
      url: '/api/trainingVideo',
      ...multipart([
        { name: 'courseId', value: (await w.make.course()).id },
        { name: 'title', value: 'Fire drill' },
        { name: 'trainingVideo', file: w.clip, filename: 'drill.mp4', type: 'video/mp4' },
      ]),
    }),
  },
  'GET /api/trainingVideo': { expect: staff('courses.read'), call: () => ({ url: '/api/trainingVideo' }) },
  'GET /api/trainingVideo/:courseId': { expect: { ...ENROLLED, ...allStaff('ok') }, call: (w) => ({ url: `/api/trainingVideo/${w.course.courseId}` }) },
  'POST /api/trainingVideo/watched': {
    expect: { ...ENROLLED, ...allStaff('ok') },
    call: (w) => ({ url: '/api/trainingVideo/watched', json: { videoId: w.course.videoId, from: 0, to: 0, position: 0 } }),
  },
  'POST /api/videoWatchedUser/:id': { expect: ENROLLED, call: (w) => ({ url: `/api/videoWatchedUser/${w.course.setId}` }) },
  // The link plays only with its viewer's stream pass (a cookie): without it, refused, whoever asks.
  'GET /api/trainingVideo/stream/:videoId/:height': {
    expect: same(403),
    call: (w) => ({ url: `/api/trainingVideo/stream/${w.course.videoId}/360` }),
    missing: () => ({ url: `/api/trainingVideo/stream/${MISSING_ID}/360` }),
  },
  'GET /api/trainingVideo/stream/offline/:downloadId/:videoId': {
    expect: same(403),
    call: async (w) => {
      const download = await w.make.offlineDownload();
      return { url: `/api/trainingVideo/stream/offline/${download.id}/${download.videoId}?signature=x` };
    },
    missing: (w) => ({ url: `/api/trainingVideo/stream/offline/${MISSING_ID}/${w.course.videoId}?signature=x` }),
  },
  // Authenticated by the records' signatures with the download's key, not by who sends them.
  'POST /api/trainingVideo/offline/sync': { expect: PUBLIC, call: async (w) => ({ url: '/api/trainingVideo/offline/sync', json: await offlineSync(w) }) },

  'POST /api/test': {
    expect: staff('courses.edit'),
    call: async (w) => ({
      url: '/api/test',
      json: { courseId: (await w.make.course()).id, title: 'Fire safety', passMark: '60', questions: [{ questionText: 'Which?', options: ['a', 'b', 'c', 'd'], correctAnswer: 'a' }] },
    }),
  },
  'GET /api/test': { expect: staff('courses.read'), call: () => ({ url: '/api/test' }) },
  'GET /api/test/published': { expect: staff('courses.read'), call: () => ({ url: '/api/test/published' }) },
  'POST /api/test/published/:id': { expect: staff('courses.edit'), call: async (w) => ({ url: `/api/test/published/${(await w.make.test(false)).id}` }) },
  'POST /api/test/unpublished/:id': { expect: staff('courses.edit'), call: async (w) => ({ url: `/api/test/unpublished/${(await w.make.test(true)).id}` }) },
  'GET /api/test/:courseId': { expect: ENROLLED, call: async (w, caller) => ({ url: `/api/test/${(await learnersCourse(w, caller)).courseId}` }) },
  'POST /api/submitTest': {
    expect: ENROLLED,
    call: async (w, caller) => {
      const course = await learnersCourse(w, caller);
      return { url: '/api/submitTest', json: { testId: course.testId, courseId: course.courseId, answers: answers(course), timeTaken: 60 } };
    },
  },
  'GET /api/submitTest': { expect: staff('results.read'), call: () => ({ url: '/api/submitTest' }) },
  'POST /api/test/grantAttempts': {
    expect: staff('courses.edit'),
    call: async (w) => ({ url: '/api/test/grantAttempts', json: { userId: w.users.learner.id, courseId: (await w.make.learnerCourse()).courseId, attempts: 1 } }),
  },
  'GET /api/certificate/:courseId': {
    expect: { ...OWNER_OR_STAFF, ...allStaff(404) },
    call: (w) => ({ url: `/api/certificate/${w.certificate.courseId}` }),
    missing: () => ({ url: `/api/certificate/${MISSING_ID}` }),
  },
  'GET /api/certificates/evidence.csv': {
    expect: staff('certificates.read'),
    call: (w) => ({ url: `/api/certificates/evidence.csv?courseId=${w.certificate.courseId}&from=2026-01-01&to=2036-12-31` }),
  },
  'GET /api/audit/entries.csv': { expect: staff('audit.read'), call: () => ({ url: '/api/audit/entries.csv?action=enrolment.accept&from=2026-01-01&to=2036-12-31' }) },
  'GET /api/certificates/list.csv': { expect: staff('certificates.read'), call: (w) => ({ url: `/api/certificates/list.csv?courseId=${w.certificate.courseId}&expiringWithinDays=30` }) },
  'GET /api/certificates/regulator-batch.csv': {
    expect: staff('certificates.read'),
    call: (w) => ({ url: `/api/certificates/regulator-batch.csv?courseId=${w.certificate.courseId}&from=2000-01-01&to=2099-12-31` }),
  },
  'GET /api/certificates/regulator-batch.xlsx': {
    expect: staff('certificates.read'),
    call: (w) => ({ url: `/api/certificates/regulator-batch.xlsx?courseId=${w.certificate.courseId}&from=2000-01-01&to=2099-12-31` }),
  },
  'GET /api/me/data.zip': { expect: signedIn(allStaff(403)), call: () => ({ url: '/api/me/data.zip' }) },
  'GET /certificates/:filename': { expect: PUBLIC, call: (w) => ({ url: w.certificate.pdfUrl }) },
  'GET /api/submitTest.csv': { expect: staff('results.read'), call: () => ({ url: '/api/submitTest.csv?search=' }) },
};

/** The request body for a route call, as app.inject takes it. */
export function routeBody(call: TRouteCall): { payload?: string | Buffer; headers: Record<string, string> } {
  if (call.parts) {
    const body = form(call.parts);
    return { payload: body.payload, headers: { ...body.headers, ...call.headers } };
  }
  if (call.json !== undefined) return { payload: JSON.stringify(call.json), headers: { 'content-type': 'application/json', ...call.headers } };
  return { headers: { ...call.headers } };
}

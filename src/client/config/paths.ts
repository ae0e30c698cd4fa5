/*
 * Every address of the client, named once (spec section 2 gives them, spellings included: the
 * learner's /UserCource, /EnrollmentRequest and /updateUserProfile, the admin area's
 * All-training-video). Links, redirects and the router use these names, never a literal.
 * This module is part of the home page's first chunk: keep it to strings and tiny functions.
 */

/** A route with one parameter (`:name`): call it for a link; the router reads `.pattern`. */
function withParam(pattern: `${string}:${string}`) {
  return Object.assign((value: string) => pattern.replace(/:\w+/, encodeURIComponent(value)), { pattern });
}

const ADMIN = '/admin-dashboard';

/**
 * /verify/{number}: a certificate number has slashes (MTA/2026/000123), so the route is a splat
 * and a link keeps them as path separators, readable as printed on the certificate. The page also
 * reads the number from a single encoded segment (/verify/MTA%2F2026%2F000123). With the
 * certificate's secret code (?code=, as the QR code carries it), the page shows the holder's details.
 */
const verifyCertificate = Object.assign(
  (number: string, code?: string) =>
    `/verify/${number.split('/').map(encodeURIComponent).join('/')}${code ? `?code=${encodeURIComponent(code)}` : ''}`,
  { pattern: '/verify/*' },
);

export const paths = {
  home: '/',
  about: '/about',
  contact: '/contact',
  courses: '/courses',
  login: '/login',
  /** The registration screen. */
  registration: '/registration',
  /** The login screen's Sign Up link, spelled as the spec spells it (the same route: paths match without regard to case). */
  signUp: '/Registration',
  otp: '/otp',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** The administrators' login, named after the backend (spec section 2). */
  adminLogin: '/backend',
  /** The first administrator's one-time set-up link. */
  adminSetup: '/admin-setup',
  /** The invitation to join the academy's staff (the link in the owner's invitation mail). */
  staffJoin: '/join-staff',
  /** The public check of a certificate number, typed in or read from the certificate's QR code. */
  verify: '/verify',
  verifyCertificate,

  dashboard: '/dashboard',
  profile: '/profile',
  profileEdit: '/updateUserProfile',
  userCourses: '/UserCource',
  enrolmentRequests: '/EnrollmentRequest',
  certificateReport: '/certificate-report',
  /** Every certificate of the learner: its state, validity, download, link to share and refresher. */
  myCertificates: '/my-certificates',
  /** The learner's own data: the archive of it, and the account's closing with its erasure. */
  yourData: '/your-data',
  /** The account's sign-in security: second factors and recovery codes. */
  security: '/security',
  courseContent: withParam('/courses/:courseId/content'),
  training: withParam('/training/:courseId'),
  testPage: withParam('/testPage/:courseId'),
  /** The report with one course's certificate chosen (after a pass, View Certificate). */
  courseCertificate: (courseId: string) => `/certificate-report?courseId=${encodeURIComponent(courseId)}`,

  admin: {
    root: ADMIN,
    /** The member of staff's own sign-in security. */
    security: `${ADMIN}/security`,
    users: {
      unapproved: `${ADMIN}/unapproved-users`,
      approved: `${ADMIN}/approved-users`,
      profiles: `${ADMIN}/user-profiles`,
      profile: withParam(`${ADMIN}/user-profiles/:userId`),
      identityChecks: `${ADMIN}/identity-checks`,
      identityCheck: withParam(`${ADMIN}/identity-checks/:userId`),
    },
    courses: {
      list: `${ADMIN}/courses`,
      create: `${ADMIN}/create-course`,
      /** The course form for one course; the id in the address makes a reload keep the course. */
      edit: (courseId: string) => `${ADMIN}/create-course?edit=${encodeURIComponent(courseId)}`,
      enrolmentRequests: `${ADMIN}/enrollment-request`,
    },
    training: {
      upload: `${ADMIN}/training-video`,
      list: `${ADMIN}/All-training-video`,
    },
    tests: {
      create: `${ADMIN}/test-form`,
      list: `${ADMIN}/All-tests`,
      published: `${ADMIN}/Published-tests`,
      results: `${ADMIN}/user-results`,
      /** The export of the evidence behind a course's certificates (CSV per course and days). */
      evidence: `${ADMIN}/certificate-evidence`,
      /** What the server recorded behind one certificate, for an auditor. */
      certificateEvidence: withParam(`${ADMIN}/certificate-evidence/:certificateId`),
    },
    certificates: {
      /** Every certificate: search, filters, revoke, re-issue, reminders, the CSV of the list. */
      list: `${ADMIN}/certificates`,
      /** A course's completions over a range of days, as the regulator's batch upload (CSV, XLSX). */
      regulatorExport: `${ADMIN}/certificates/regulator-export`,
    },
    staff: {
      /** The members of staff, their roles and the open invitations (the owner's). */
      list: `${ADMIN}/staff`,
      /** The academy's settings: the staff's second factor and the retention period. */
      settings: `${ADMIN}/academy-settings`,
    },
    /** Every staff action recorded: searched, downloaded as CSV, its chain checked. */
    audit: `${ADMIN}/audit-trail`,
  },
} as const;

/** Whether an address is in the administration area (paths match without regard to case). */
export function isAdminArea(pathname: string): boolean {
  return pathname.toLowerCase().startsWith(ADMIN);
}

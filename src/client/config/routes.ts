import { paths } from './paths.ts';

/*
 * Every screen of the client, one entry each: the table the router, the server's frames and
 * preloads, the code split, the admin menu and headings and the prerendered pages are derived
 * from. Adding a screen is its feature folder, one line here and, for a new address, a name in
 * paths.ts. Pure data: the build's configuration and the server import it under Node, so it
 * imports nothing but paths.ts and types.
 */

/** Decides the layout, the guard (a session for the learner, the admin role for admin) and the server's frame. */
export type TArea = 'public' | 'learner' | 'admin';

/** How wide an admin screen may grow: narrow for forms, wide for lists of cards. */
export type TAdminPageWidth = '3xl' | '5xl' | '6xl';

/** An admin screen's heading, its one line of explanation, and its width. */
export type TScreenHeading = { title: string; description: string; width?: TAdminPageWidth };

/** The staff permissions screens need (a part of shared/staff-roles.ts's STAFF_PERMISSIONS; config/ imports no module). */
export type TRoutePermission =
  | 'overview.read'
  | 'staff.manage'
  | 'settings.manage'
  | 'accounts.read'
  | 'enrolments.read'
  | 'courses.read'
  | 'courses.edit'
  | 'results.read'
  | 'certificates.read'
  | 'audit.read';

export type TScreenRoute = {
  /** The router's pattern (from paths). */
  pattern: string;
  /** The screen's module under src/client, e.g. 'features/profile/profile-page.tsx'. */
  module: string;
  /** The module's named export that draws the screen. */
  component: string;
  area: TArea;
  /**
   * The code-split group the module joins: screens that share code and are visited together share
   * a chunk. 'entry' is the home page, part of the entry file.
   */
  chunk: string;
  /** A public page the server renders for visitors (decision 026). */
  prerendered?: boolean;
  /**
   * false for a screen that never calls the API: it renders without the data providers (React
   * Query and tRPC), whose code it then does not fetch. Every other screen renders inside them.
   */
  dataProviders?: false;
  /** An admin page's heading when it does not depend on its data: the screen and the server's frame draw it. */
  heading?: TScreenHeading;
  /** Its place in the admin menu: the group's title and the link's label (the menu follows this table's order). */
  menu?: { group: string; label: string };
  /**
   * An admin screen's staff permission (shared/staff-roles.ts): a member whose role lacks it sees
   * no menu link to it, and its address shows "Not part of your role".
   */
  permission?: TRoutePermission;
};

/**
 * The code-split groups of the frames screens come inside: the build names these files so (build/
 * chunk-groups.ts) and the server preloads them with a screen of the area (src/server/spa.ts).
 */
export const FRAME_CHUNKS = {
  /** The data providers (React Query, tRPC, the toaster), around every screen that calls the API. */
  dataProviders: 'app',
  /** The admin area's layout and menu, around every admin screen. */
  admin: 'admin',
} as const;

const admin = paths.admin;

export const SCREEN_ROUTES: readonly TScreenRoute[] = [
  // Public pages.
  { pattern: paths.home, module: 'features/home/home-page.tsx', component: 'HomePage', area: 'public', chunk: 'entry', prerendered: true, dataProviders: false },
  { pattern: paths.about, module: 'features/about/about-page.tsx', component: 'AboutPage', area: 'public', chunk: 'public', prerendered: true, dataProviders: false },
  { pattern: paths.contact, module: 'features/contact/contact-page.tsx', component: 'ContactPage', area: 'public', chunk: 'contact', prerendered: true },
  { pattern: paths.courses, module: 'app/catalogue-screen.tsx', component: 'CatalogueScreen', area: 'public', chunk: 'courses', prerendered: true },
  { pattern: paths.login, module: 'features/auth/login-page.tsx', component: 'LoginPage', area: 'public', chunk: 'account', prerendered: true },
  // Paths match without regard to case, so this is also the login screen's /Registration (paths.signUp).
  { pattern: paths.registration, module: 'features/auth/registration-page.tsx', component: 'RegistrationPage', area: 'public', chunk: 'account', prerendered: true },
  { pattern: paths.otp, module: 'features/auth/otp-page.tsx', component: 'OtpPage', area: 'public', chunk: 'account' },
  { pattern: paths.forgotPassword, module: 'features/auth/forgot-password-page.tsx', component: 'ForgotPasswordPage', area: 'public', chunk: 'account' },
  { pattern: paths.resetPassword, module: 'features/auth/reset-password-page.tsx', component: 'ResetPasswordPage', area: 'public', chunk: 'account' },
  { pattern: paths.adminLogin, module: 'features/auth/admin-login-page.tsx', component: 'AdminLoginPage', area: 'public', chunk: 'account' },
  { pattern: paths.adminSetup, module: 'features/auth/admin-setup-page.tsx', component: 'AdminSetupPage', area: 'public', chunk: 'account' },
  { pattern: paths.staffJoin, module: 'features/auth/staff-join-page.tsx', component: 'StaffJoinPage', area: 'public', chunk: 'account' },
  // /verify and /verify/{number}: the number has slashes, so the rest of the path is the splat.
  // Often a visit's first page (from a certificate's QR code): a chunk of its own.
  { pattern: paths.verifyCertificate.pattern, module: 'features/certificates/verify-page.tsx', component: 'VerifyPage', area: 'public', chunk: 'verify' },

  // The learner's screens, behind a session.
  { pattern: paths.dashboard, module: 'app/dashboard-screen.tsx', component: 'DashboardScreen', area: 'learner', chunk: 'courses' },
  { pattern: paths.profile, module: 'features/profile/profile-page.tsx', component: 'ProfilePage', area: 'learner', chunk: 'profile' },
  // With the creation form (which the profile page loads for a learner without one): the form library and zod.
  { pattern: paths.profileEdit, module: 'features/profile/profile-edit-page.tsx', component: 'ProfileEditPage', area: 'learner', chunk: 'profile-form' },
  { pattern: paths.courseContent.pattern, module: 'features/enrolments/course-content-page.tsx', component: 'CourseContentPage', area: 'learner', chunk: 'courses' },
  { pattern: paths.enrolmentRequests, module: 'features/enrolments/enrolment-requests-page.tsx', component: 'EnrolmentRequestsPage', area: 'learner', chunk: 'courses' },
  { pattern: paths.userCourses, module: 'features/enrolments/user-courses-page.tsx', component: 'UserCoursesPage', area: 'learner', chunk: 'courses' },
  // The player: fetched only by learners who open a training.
  { pattern: paths.training.pattern, module: 'features/training/training-player-page.tsx', component: 'TrainingPlayerPage', area: 'learner', chunk: 'training' },
  // A pass leads from the test to its certificate (View Certificate).
  { pattern: paths.testPage.pattern, module: 'features/tests/test-page.tsx', component: 'TestPage', area: 'learner', chunk: 'tests' },
  { pattern: paths.certificateReport, module: 'features/certificates/certificate-report-page.tsx', component: 'CertificateReportPage', area: 'learner', chunk: 'tests' },
  // Opened from the dashboard and the navigation, with the report's code (the same feature and calls).
  // Opened from the profile: the archive of the learner's data, and erasure.
  { pattern: paths.yourData, module: 'features/personal-data/your-data-page.tsx', component: 'YourDataPage', area: 'learner', chunk: 'profile' },
  { pattern: paths.myCertificates, module: 'features/certificates/my-certificates-page.tsx', component: 'MyCertificatesPage', area: 'learner', chunk: 'tests' },
  { pattern: paths.security, module: 'features/auth/security-page.tsx', component: 'SecurityPage', area: 'learner', chunk: 'security' },

  // The administration area, for administrators. The menu's order is this order; the lists load
  // neither the form library nor zod, which the forms ('admin-forms') share.
  { pattern: admin.root, module: 'features/admin-overview/admin-overview-page.tsx', component: 'AdminOverviewPage', area: 'admin', permission: 'overview.read', chunk: 'admin' },
  {
    pattern: admin.users.unapproved, module: 'features/admin-users/unapproved-users-page.tsx', component: 'UnapprovedUsersPage', area: 'admin', permission: 'accounts.read', chunk: 'admin-users',
    menu: { group: 'Users', label: 'Unapproved Users' },
    heading: {
      title: 'Unapproved Users',
      description: 'Learners who have verified their email and wait for approval before they can enrol in courses.',
    },
  },
  {
    pattern: admin.users.approved, module: 'features/admin-users/approved-users-page.tsx', component: 'ApprovedUsersPage', area: 'admin', permission: 'accounts.read', chunk: 'admin-users',
    menu: { group: 'Users', label: 'Approved Users' },
    heading: { title: 'Approved Users', description: 'Learners who may request enrolment in courses.' },
  },
  {
    pattern: admin.users.profiles, module: 'features/admin-profiles/user-profiles-page.tsx', component: 'UserProfilesPage', area: 'admin', permission: 'accounts.read', chunk: 'admin-profiles',
    menu: { group: 'Users', label: 'User Profiles' },
    heading: {
      width: '6xl',
      title: 'User Profiles',
      description: "Seafarers' details and identity documents, newest first. Expired or soon-expiring passports and CDCs are flagged.",
    },
  },
  // Opened from the profiles and the user lists; its heading is the user's name.
  { pattern: admin.users.profile.pattern, module: 'features/admin-profiles/user-profile-detail-page.tsx', component: 'UserProfileDetailPage', area: 'admin', permission: 'accounts.read', chunk: 'admin-profiles' },
  {
    pattern: admin.users.identityChecks, module: 'features/admin-identity/identity-checks-page.tsx', component: 'IdentityChecksPage', area: 'admin', permission: 'accounts.read', chunk: 'admin-identity',
    menu: { group: 'Users', label: 'Identity checks' },
    heading: {
      width: '6xl',
      title: 'Identity checks',
      description: 'Profiles awaiting a check of their identity against the uploaded documents come first. The same INDOS or passport number on two accounts is flagged.',
    },
  },
  // Opened from the queue; its heading is the learner's name.
  { pattern: admin.users.identityCheck.pattern, module: 'features/admin-identity/identity-check-page.tsx', component: 'IdentityCheckPage', area: 'admin', permission: 'accounts.read', chunk: 'admin-identity' },
  {
    pattern: admin.courses.list, module: 'features/admin-courses/admin-courses-page.tsx', component: 'AdminCoursesPage', area: 'admin', permission: 'courses.read', chunk: 'admin-courses',
    menu: { group: 'Courses', label: 'All Courses' },
    heading: {
      width: '6xl',
      title: 'All Courses',
      description: 'Every course the academy offers. Inactive courses are hidden from the catalogue and take no new requests.',
    },
  },
  // Its heading is Create or Edit, as the address says.
  {
    pattern: admin.courses.create, module: 'features/admin-courses/course-form-page.tsx', component: 'CourseFormPage', area: 'admin', permission: 'courses.edit', chunk: 'admin-forms',
    menu: { group: 'Courses', label: 'Create Course' },
  },
  {
    pattern: admin.courses.enrolmentRequests, module: 'features/admin-enrolments/enrolment-requests-admin-page.tsx', component: 'EnrolmentRequestsAdminPage', area: 'admin', permission: 'enrolments.read', chunk: 'admin-courses',
    menu: { group: 'Courses', label: 'User Enrollment Request' },
    heading: {
      width: '6xl',
      title: 'User Enrollment Requests',
      description: "Learners' requests for courses. Accept a pending or rejected request to open the course to the learner; reject one to close it.",
    },
  },
  {
    pattern: admin.training.upload, module: 'features/admin-training/upload-training-videos-page.tsx', component: 'UploadTrainingVideosPage', area: 'admin', permission: 'courses.edit', chunk: 'admin-forms',
    menu: { group: 'Training', label: 'Upload Training Video' },
    heading: {
      width: '3xl',
      title: 'Upload Training Videos',
      description: 'Choose a course and add its training videos. Each file becomes the next part of the course’s training, in the order listed.',
    },
  },
  {
    pattern: admin.training.list, module: 'features/admin-training/training-videos-page.tsx', component: 'TrainingVideosPage', area: 'admin', permission: 'courses.read', chunk: 'admin-training',
    menu: { group: 'Training', label: 'All Training Videos' },
    heading: {
      title: 'All Uploaded Training Videos',
      description: 'Each course’s training videos, part by part, in the order learners watch them.',
    },
  },
  {
    pattern: admin.tests.create, module: 'features/admin-tests/test-form-page.tsx', component: 'TestFormPage', area: 'admin', permission: 'courses.edit', chunk: 'admin-forms',
    menu: { group: 'Test', label: 'Create Test' },
    heading: {
      width: '3xl',
      title: 'Create New Test',
      description: 'Choose an active course, set the pass mark and write the questions. A new test is unpublished until you publish it from All Tests.',
    },
  },
  {
    pattern: admin.tests.list, module: 'features/admin-tests/all-tests-page.tsx', component: 'AllTestsPage', area: 'admin', permission: 'courses.read', chunk: 'admin-tests',
    menu: { group: 'Test', label: 'All Tests' },
    heading: {
      title: 'All Created Tests',
      description: "Publish a test to open it to the course's learners who finished the training; unpublish it to close it.",
    },
  },
  {
    pattern: admin.tests.published, module: 'features/admin-tests/published-tests-page.tsx', component: 'PublishedTestsPage', area: 'admin', permission: 'courses.read', chunk: 'admin-tests',
    menu: { group: 'Test', label: 'Published Tests' },
    heading: { title: 'Published Tests', description: 'The tests open to learners now. Publish or unpublish them from All Tests.' },
  },
  {
    pattern: admin.tests.results, module: 'features/admin-tests/test-results-page.tsx', component: 'TestResultsPage', area: 'admin', permission: 'results.read', chunk: 'admin-tests',
    menu: { group: 'Test', label: 'User Results' },
    heading: {
      title: 'Test Results',
      description: 'Every submitted test, newest first. Open a result to see the answers given beside the correct ones.',
    },
  },
  // The evidence is opened from the results: the same chunk.
  {
    pattern: admin.tests.evidence, module: 'features/admin-evidence/evidence-export-page.tsx', component: 'EvidenceExportPage', area: 'admin', permission: 'certificates.read', chunk: 'admin-tests',
    menu: { group: 'Test', label: 'Certificate Evidence' },
    heading: {
      width: '3xl',
      title: 'Certificate Evidence',
      description: 'The record behind a course’s certificates for an auditor, as one CSV file: the training watched, every refused report and every test attempt.',
    },
  },
  { pattern: admin.tests.certificateEvidence.pattern, module: 'features/admin-evidence/certificate-evidence-page.tsx', component: 'CertificateEvidencePage', area: 'admin', permission: 'certificates.read', chunk: 'admin-tests' },
  {
    pattern: admin.certificates.list, module: 'features/admin-certificates/certificates-page.tsx', component: 'CertificatesPage', area: 'admin', permission: 'certificates.read', chunk: 'admin-certificates',
    menu: { group: 'Certificates', label: 'All Certificates' },
    heading: {
      width: '6xl',
      title: 'Certificates',
      description: 'Every certificate issued, with its state as of today. Revoke or re-issue one, see its expiry reminders, or download the list as CSV.',
    },
  },
  {
    pattern: admin.certificates.regulatorExport, module: 'features/admin-certificates/regulator-export-page.tsx', component: 'RegulatorExportPage', area: 'admin', permission: 'certificates.read', chunk: 'admin-certificates',
    menu: { group: 'Certificates', label: 'Regulator Export' },
    heading: {
      title: 'Regulator Export',
      description: 'A course’s completions over a range of days, as the batch upload the regulator asks for. Check the rows that lack a field before you download.',
    },
  },
  {
    pattern: admin.audit, module: 'features/admin-audit/audit-trail-page.tsx', component: 'AuditTrailPage', area: 'admin', permission: 'audit.read', chunk: 'admin-audit',
    menu: { group: 'Audit', label: 'Audit Trail' },
    heading: {
      width: '6xl',
      title: 'Audit trail',
      description: 'Every action taken by staff: who, when, from which address, and the values before and after. Search it, download it as CSV, or check that no entry has been changed.',
    },
  },

  {
    pattern: admin.staff.list, module: 'features/admin-staff/staff-page.tsx', component: 'StaffPage', area: 'admin', permission: 'staff.manage', chunk: 'admin-staff',
    menu: { group: 'Academy', label: 'Staff' },
    heading: {
      width: '5xl',
      title: 'Staff',
      description: 'Who works in the admin area and what each may do. Invite a member by e-mail with a role, change roles, deactivate.',
    },
  },
  {
    pattern: admin.staff.settings, module: 'features/admin-staff/academy-settings-page.tsx', component: 'AcademySettingsPage', area: 'admin', permission: 'settings.manage', chunk: 'admin-staff',
    menu: { group: 'Academy', label: 'Academy Settings' },
    heading: {
      width: '3xl',
      title: 'Academy Settings',
      description: 'How staff sign in, and how long what an erasure must keep is kept.',
    },
  },
  {
    pattern: admin.security, module: 'features/auth/security-page.tsx', component: 'AdminSecurityPage', area: 'admin', permission: 'overview.read', chunk: 'security',
    menu: { group: 'Account', label: 'Sign-in Security' },
    heading: {
      width: '3xl',
      title: 'Sign-in Security',
      description: 'Your second factors (authenticator apps and passkeys) and your recovery codes.',
    },
  },

  // Not found: last in each area, since the server takes the first pattern that matches.
  { pattern: `${admin.root}/*`, module: 'features/errors/admin-not-found-page.tsx', component: 'AdminNotFoundPage', area: 'admin', chunk: 'admin' },
  { pattern: '*', module: 'features/errors/not-found-page.tsx', component: 'NotFoundPage', area: 'public', chunk: 'public', dataProviders: false },
];

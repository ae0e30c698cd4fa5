import { staffRouter } from './modules/staff/staff.router.ts';
import { testsRouter } from './modules/tests/tests.router.ts';
import { certificatesRouter } from './modules/certificates/certificates.router.ts';
import { evidenceRouter } from './modules/evidence/evidence.router.ts';
import { authRouter } from './modules/auth/auth.router.ts';
import { securityRouter } from './modules/auth/security.router.ts';
import { contactRouter } from './modules/contact/contact.router.ts';
import { coursesRouter } from './modules/courses/courses.router.ts';
import { enrolmentsRouter } from './modules/enrolments/enrolments.router.ts';
import { overviewRouter } from './modules/overview/overview.router.ts';
import { personalDataRouter } from './modules/personal-data/personal-data.router.ts';
import { identityRouter } from './modules/profiles/identity.router.ts';
import { profilesRouter } from './modules/profiles/profiles.router.ts';
import { settingsRouter } from './modules/settings/settings.router.ts';
import { siteRouter } from './modules/site/site.router.ts';
import { trainingRouter } from './modules/training/training.router.ts';
import { usersRouter } from './modules/users/users.router.ts';
import { auditRouter } from './modules/audit/audit.router.ts';
import { createRouter } from './trpc/init.ts';

/** The client's API. The client imports this file's type and nothing else from the server. */
export const appRouter = createRouter({
  site: siteRouter,
  auth: authRouter,
  security: securityRouter,
  users: usersRouter,
  profiles: profilesRouter,
  identity: identityRouter,
  courses: coursesRouter,
  enrolments: enrolmentsRouter,
  training: trainingRouter,
  tests: testsRouter,
  certificates: certificatesRouter,
  evidence: evidenceRouter,
  contact: contactRouter,
  overview: overviewRouter,
  personalData: personalDataRouter,
  staff: staffRouter,
  settings: settingsRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;

import { describe, expect, it } from 'vitest';
import { paths } from '../src/client/config/paths.ts';
import { BROWSER_SESSION_PATH } from '../src/shared/constants.ts';
import { LOGOUT_PATTERN, OFFLINE_SYNC_PATTERN, PICTURE_PATTERN, adminOnlyFiles, learnerPagePattern } from './service-worker.ts';

const at = (path: string) => `https://academy.example${path}`;

describe('the service worker keeps', () => {
  const learnerPage = learnerPagePattern();

  it("every learner page of the route table and the login page, whatever the case, slash or query, and nothing else", () => {
    for (const path of [
      paths.login,
      paths.dashboard,
      '/Dashboard/',
      paths.userCourses,
      paths.courseContent('c1'),
      paths.training('c1'),
      `${paths.training('c1')}?part=2`,
      paths.profile,
      paths.myCertificates,
      paths.courseCertificate('c1'),
    ]) {
      expect(learnerPage.test(at(path)), path).toBe(true);
    }
    for (const path of ['/', paths.courses, paths.registration, '/courses/c1', '/courses/c1/content/x', '/trpc/auth.me', '/api/session', '/dashboardx', paths.admin.root, '/training']) {
      expect(learnerPage.test(at(path)), path).toBe(false);
    }
  });

  it('course pictures and training posters, not profile pictures or documents, nor the media streams', () => {
    expect(PICTURE_PATTERN.test(at('/api/uploads/courseImg/abc.webp'))).toBe(true);
    expect(PICTURE_PATTERN.test(at('/api/files/trainingVideo/poster-1.jpg?expires=1&signature=x'))).toBe(true);
    expect(PICTURE_PATTERN.test(at('/api/files/profilePicture/abc.png?expires=1&signature=x'))).toBe(false);
    expect(PICTURE_PATTERN.test(at('/api/trainingVideo/stream/v1/360'))).toBe(false);
  });

  it('the offline sync and the browser’s logout for background sync, and not the renewal', () => {
    expect(OFFLINE_SYNC_PATTERN.test(at('/api/trainingVideo/offline/sync'))).toBe(true);
    expect(OFFLINE_SYNC_PATTERN.test(at('/api/trainingVideo/offline/syncx'))).toBe(false);
    expect(LOGOUT_PATTERN.test(at(`${BROWSER_SESSION_PATH}/logout`))).toBe(true);
    expect(LOGOUT_PATTERN.test(at(`${BROWSER_SESSION_PATH}/refresh`))).toBe(false);
    expect(LOGOUT_PATTERN.test(at('/api/user/logout'))).toBe(false);
  });

  it("the build's files but those of the administration area alone", () => {
    const files = adminOnlyFiles({
      a: { file: 'assets/a.js', name: 'admin' },
      b: { file: 'assets/b.js', name: 'admin-forms_admin-tests' },
      c: { file: 'assets/c.js', name: 'account_admin-forms_profile-form' },
      d: { file: 'assets/d.js', name: 'courses' },
      e: { file: 'assets/e.woff2' },
    });
    expect([...files]).toEqual(['assets/a.js', 'assets/b.js']);
  });
});

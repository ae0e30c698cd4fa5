import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestStatus } from '../../../shared/schemas/tests.ts';
import type { TCourseHome } from '../../../shared/schemas/enrolment.ts';
import { CourseContentPage } from '@/features/enrolments/course-content-page.tsx';
import { renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const T = MESSAGES.tests;
const TRAINING = MESSAGES.training;
const COURSE_ID = '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';

const home: TCourseHome = {
  course: {
    id: COURSE_ID,
    title: 'Basic Safety Training',
    description: 'STCW basic safety.',
    duration: '5 days',
    price: 4500,
    category: 'STCW',
    subjects: [],
    image: null,
    isActive: true,
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
  },
  enrolment: { id: 'e-1', courseId: COURSE_ID, status: 'approved', requestedAt: '2026-11-02T09:00:00.000Z', decidedAt: '2026-11-03T09:00:00.000Z' },
  progress: { completedVideos: 2, totalVideos: 2, percent: 100 },
  training: {
    setId: 's-1',
    title: 'Basic safety',
    submittedAt: '2026-11-25T09:00:00.000Z',
    videos: [
      { id: 'v1', serial: 1, title: 'Fire', ready: true, durationSeconds: 7, completed: true, locked: false },
      { id: 'v2', serial: 2, title: 'Survival', ready: true, durationSeconds: 610, completed: true, locked: false },
    ],
  },
};

function standing(overrides: Partial<TTestStatus>): TTestStatus {
  return {
    courseId: COURSE_ID,
    state: 'open',
    message: T.attemptsLeft(3),
    test: { id: 't-1', title: 'Basic Safety Training', passMark: 70, questionCount: 10, waitMinutes: 10 },
    attemptsAllowed: 3,
    attemptsUsed: 0,
    attemptsLeft: 3,
    nextAttemptAt: null,
    lastResult: null,
    ...overrides,
  };
}

function renderHome(status: TTestStatus, courseHome: TCourseHome = home) {
  return renderWithServer(<CourseContentPage />, {
    url: `/courses/${COURSE_ID}/content`,
    pattern: '/courses/:courseId/content',
    answer: (path) => {
      if (path === 'enrolments.courseHome') return courseHome;
      if (path === 'tests.status') return status;
      throw new Error(`unexpected call ${path}`);
    },
  });
}

/** Every part completed on the server's record, the training not submitted yet. */
const notSubmitted: TCourseHome = { ...home, training: { ...home.training!, submittedAt: null } };
const beforeSubmitting = () => standing({ state: 'training', message: T.trainingFirst });

const step = (name: string) => screen.getByRole('heading', { level: 3, name: new RegExp(`^${name}`) }).closest('li')!;

describe('the course home', () => {
  it('leads on to the test once the training is submitted, with the attempts left', async () => {
    renderHome(standing({ attemptsUsed: 1, attemptsLeft: 2 }));
    const link = await screen.findByRole('link', { name: 'Take the test' });
    expect(link.getAttribute('href')).toBe(`/testPage/${COURSE_ID}`);
    expect(step('Test').textContent).toContain('10 questions, pass mark 70%. You have 2 of 3 attempts left.');
    expect(within(step('Certificate')).getByText('Not available yet')).toBeTruthy();
    // Parts under a minute are timed in seconds.
    expect(screen.getByText('7 s')).toBeTruthy();
    expect(screen.getByText('10 min')).toBeTruthy();
  });

  it('says when the next attempt opens, and why the test is closed', async () => {
    const { view } = renderHome(standing({ state: 'waiting', attemptsUsed: 1, attemptsLeft: 2, nextAttemptAt: '2026-11-26T09:10:00.000Z' }));
    expect(await screen.findByText(/^Your next attempt opens at \d{1,2}:10 (am|pm)\. You have 2 of 3 attempts left\.$/)).toBeTruthy();
    view.unmount();

    renderHome(standing({ state: 'exhausted', message: T.attemptsUsed(3), attemptsUsed: 3, attemptsLeft: 0 }));
    expect(await screen.findByText(T.attemptsUsed(3))).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Watch the training again' }).getAttribute('href')).toBe(`/training/${COURSE_ID}`);
  });

  it('leads on to the certificate after a pass', async () => {
    renderHome(standing({ state: 'passed', message: T.alreadyPassed, lastResult: { score: 9, totalQuestions: 10, percentage: 90, passed: true, submittedAt: '2026-11-26T09:00:00.000Z' } }));
    const link = await screen.findByRole('link', { name: 'View Certificate' });
    expect(link.getAttribute('href')).toBe(`/certificate-report?courseId=${COURSE_ID}`);
    expect(step('Test').textContent).toContain('You passed with 90%.');
    expect(within(step('Test')).getByText('Done')).toBeTruthy();
    expect(within(step('Certificate')).queryByText('Not available yet')).toBeNull();
  });

  it('offline, says the test needs a connection instead of leading to it', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderHome(standing({}));
      await screen.findByText('The test is open: 10 questions, pass mark 70%. You have 3 of 3 attempts left.');
      expect(within(step('Test')).getByText('The test needs a connection: its questions never come to this device before you start.')).toBeTruthy();
      expect(screen.queryByRole('link', { name: 'Take the test' })).toBeNull();
      // Still open to the learner, once online.
      expect(within(step('Test')).queryByText('Not available yet')).toBeNull();
    } finally {
      onLine.mockRestore();
    }
  });

  it('offers Submit Training once every part is completed, then leads on to the test with the attempts left', async () => {
    const submitted: unknown[] = [];
    let submittedAt: string | null = null;
    const { user } = renderWithServer(<CourseContentPage />, {
      url: `/courses/${COURSE_ID}/content`,
      pattern: '/courses/:courseId/content',
      answer: (path, input) => {
        if (path === 'enrolments.courseHome') return { ...notSubmitted, training: { ...notSubmitted.training!, submittedAt } };
        if (path === 'tests.status') return submittedAt ? standing({}) : beforeSubmitting();
        if (path === 'training.submit') {
          submitted.push(input);
          submittedAt = '2026-11-26T09:00:00.000Z';
          return { message: TRAINING.submitted, submittedAt };
        }
        throw new Error(`unexpected call ${path}`);
      },
    });
    await screen.findByText('Every training part is completed. Submit the training to open the test: 10 questions, pass mark 70%, 3 attempts.');
    const button = within(step('Test')).getByRole('button', { name: 'Submit Training' });
    expect(within(step('Test')).queryByText('Not available yet')).toBeNull();
    await user.click(button);
    const result = await within(step('Test')).findByRole('status');
    expect(result.textContent).toBe(TRAINING.submitted);
    expect(submitted).toEqual([{ setId: 's-1' }]);
    // The button is gone; the focus is on the result, just before the way to the test.
    await waitFor(() => expect(document.activeElement).toBe(result));
    expect(await within(step('Test')).findByRole('link', { name: 'Take the test' })).toBeTruthy();
    expect(step('Test').textContent).toContain('You have 3 of 3 attempts left.');
    expect(screen.queryByRole('button', { name: 'Submit Training' })).toBeNull();
  });

  it('says why a submission was refused', async () => {
    const { user } = renderWithServer(<CourseContentPage />, {
      url: `/courses/${COURSE_ID}/content`,
      pattern: '/courses/:courseId/content',
      answer: (path) => {
        if (path === 'enrolments.courseHome') return notSubmitted;
        if (path === 'tests.status') return beforeSubmitting();
        if (path === 'training.submit') throw serverError(400, TRAINING.notComplete);
        throw new Error(`unexpected call ${path}`);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Submit Training' }));
    expect((await screen.findByRole('alert')).textContent).toBe(TRAINING.notComplete);
    expect(screen.getByRole('button', { name: 'Submit Training' })).toBeTruthy();
  });

  it('offline, says submitting the training needs a connection instead of offering a button that cannot reach the server', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderHome(beforeSubmitting(), notSubmitted);
      expect(await within(await waitFor(() => step('Test'))).findByText(TRAINING.submitNeedsConnection)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Submit Training' })).toBeNull();
    } finally {
      onLine.mockRestore();
    }
  });
});

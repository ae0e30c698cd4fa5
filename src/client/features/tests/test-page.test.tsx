import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestResult, TTestSession } from '../../../shared/schemas/assessment.ts';
import { TestPage } from '@/features/tests/test-page.tsx';
import { currentLocation, networkError, renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const T = MESSAGES.tests;
const COURSE_ID = '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';
const COURSE = 'Fire Prevention and Fire Fighting';

const QUESTIONS = [
  { id: 'q1', questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correct: 'CO2' },
  { id: 'q2', questionText: 'The general emergency alarm is how many short blasts and one long?', options: ['Three', 'Five', 'Seven', 'Nine'], correct: 'Seven' },
  { id: 'q3', questionText: 'A lifejacket light must burn for at least how long?', options: ['2 hours', '4 hours', '8 hours', '12 hours'], correct: '8 hours' },
];

/**
 * tests.take and tests.submit as the server behaves: opening starts an attempt (or hands back the
 * open one), submitting scores it against a key the page never sees and closes it.
 */
const server = {
  attempts: 0,
  open: null as string | null,
  takeCalls: 0,
  submissions: [] as Array<Record<string, unknown>>,
  refuseTake: null as Error | null,
  refuseSubmit: null as Error | null,
};

function session(attemptId: string): TTestSession {
  return {
    test: {
      id: 'test-1',
      course: { id: COURSE_ID, title: COURSE },
      title: `${COURSE} test`,
      passMark: 67,
      questions: QUESTIONS.map(({ id, questionText, options }) => ({ id, questionText, options })),
    },
    attempt: { id: attemptId, startedAt: '2026-11-24T09:00:00.000Z' },
  };
}

function answer(path: string, input: Record<string, unknown>): unknown {
  if (path === 'tests.take') {
    server.takeCalls += 1;
    if (server.refuseTake) throw server.refuseTake;
    if (!server.open) {
      server.attempts += 1;
      server.open = `attempt-${server.attempts}`;
    }
    return session(server.open);
  }
  if (path === 'tests.submit') {
    server.submissions.push(input);
    if (server.refuseSubmit) throw server.refuseSubmit;
    const answers = input.answers as Array<{ questionId: string; selectedAnswer: string }>;
    const score = answers.filter((given) => QUESTIONS.find((question) => question.id === given.questionId)?.correct === given.selectedAnswer).length;
    const percentage = Math.round((score / QUESTIONS.length) * 10_000) / 100;
    const passed = score * 100 >= 67 * QUESTIONS.length;
    const attemptId = server.open!;
    server.open = null;
    return {
      message: T.scored(score, QUESTIONS.length, percentage, passed),
      attemptId,
      testId: 'test-1',
      courseId: COURSE_ID,
      score,
      totalQuestions: QUESTIONS.length,
      percentage,
      passMark: 67,
      passed,
      timeTakenSeconds: 185,
      startedAt: '2026-11-24T09:00:00.000Z',
      submittedAt: '2026-11-24T09:03:05.000Z',
      answers,
      certificate: passed ? { id: 'c-1', number: 'MTA/2026/000123', status: 'pending', issuedAt: '2026-11-24T09:03:05.000Z', pdfUrl: null } : null,
    } satisfies TTestResult;
  }
  throw new Error(`unexpected call ${path}`);
}

function renderPage() {
  return renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer }).user;
}

const submitButton = () => screen.getByRole('button', { name: /Submit Test/ }) as HTMLButtonElement;
const question = (number: number) => screen.getByRole('group', { name: new RegExp(`^Question ${number} of 3`) });

async function choose(user: ReturnType<typeof renderPage>, number: number, option: string) {
  await user.click(within(question(number)).getByRole('radio', { name: option }));
}

beforeEach(() => {
  server.attempts = 0;
  server.open = null;
  server.takeCalls = 0;
  server.submissions = [];
  server.refuseTake = null;
  server.refuseSubmit = null;
  window.sessionStorage.clear();
  // jsdom lays nothing out, so it has no scrolling.
  Element.prototype.scrollIntoView = () => undefined;
  window.scrollTo = () => undefined;
});

describe('the test page', { timeout: 20_000 }, () => {
  it('numbers the questions as radio groups and keeps Submit Test disabled until every question is answered', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { level: 1, name: `${COURSE} test` });
    expect(screen.getAllByRole('group').map((group) => group.querySelector('legend span')?.textContent)).toEqual([
      'Question 1 of 3 (not answered)',
      'Question 2 of 3 (not answered)',
      'Question 3 of 3 (not answered)',
    ]);
    // One radio group per question: the options share a name, so arrow keys move within it.
    const radios = within(question(2)).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => radio.value)).toEqual(['Three', 'Five', 'Seven', 'Nine']);
    expect(new Set(radios.map((radio) => radio.name)).size).toBe(1);
    expect(submitButton().disabled).toBe(true);
    expect(screen.getByText('Answered 0 of 3')).toBeTruthy();

    await choose(user, 1, 'CO2');
    await choose(user, 2, 'Seven');
    expect(screen.getByText('Answered 2 of 3')).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
    // The hint names the question still unanswered, and takes the learner there.
    await user.click(screen.getByRole('button', { name: 'Go to question 3' }));
    expect(document.activeElement).toBe(within(question(3)).getAllByRole('radio')[0]);

    await choose(user, 3, '8 hours');
    expect(screen.getByText('Answered 3 of 3')).toBeTruthy();
    expect(submitButton().disabled).toBe(false);
    expect(screen.queryByRole('button', { name: /Go to question/ })).toBeNull();
    expect(server.submissions).toHaveLength(0);
  });

  it('submits the chosen answers, shows the score message and View Certificate for a pass, and forgets the stored answers', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { level: 1, name: `${COURSE} test` });
    await choose(user, 1, 'CO2');
    await choose(user, 2, 'Seven');
    await choose(user, 3, '2 hours');
    expect(window.sessionStorage.getItem('testAnswers_attempt-1')).toBeTruthy();
    await user.click(submitButton());

    const message = T.scored(2, 3, 66.67, false);
    expect(message).toContain('did not pass');
    // 2 of 3 against a pass mark of 67 fails; here the server's words are what the page shows.
    await screen.findByText(message);
    expect(server.submissions).toEqual([
      {
        testId: 'test-1',
        answers: [
          { questionId: 'q1', selectedAnswer: 'CO2' },
          { questionId: 'q2', selectedAnswer: 'Seven' },
          { questionId: 'q3', selectedAnswer: '2 hours' },
        ],
      },
    ]);
    expect(screen.queryByRole('link', { name: /View Certificate/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Courses' }).getAttribute('href')).toBe('/UserCource');
    expect(window.sessionStorage.getItem('testAnswers_attempt-1')).toBeNull();
    // The result takes the focus, so a screen reader reads it next.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your result' }));

    // Try again opens a new attempt: a fresh form, nothing chosen.
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(server.takeCalls).toBe(2));
    await screen.findByText('Answered 0 of 3');
    expect(server.attempts).toBe(2);
    expect(screen.getAllByRole('radio').filter((radio) => (radio as HTMLInputElement).checked)).toHaveLength(0);

    await choose(user, 1, 'CO2');
    await choose(user, 2, 'Seven');
    await choose(user, 3, '8 hours');
    await user.click(submitButton());
    await screen.findByText(T.scored(3, 3, 100, true));
    expect(screen.getByRole('heading', { name: 'Congratulations!' })).toBeTruthy();
    expect(screen.getByText('MTA/2026/000123')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Certificate' }).getAttribute('href')).toBe(`/certificate-report?courseId=${COURSE_ID}`);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByText('3 min 05 s')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'View Certificate' }));
    expect(currentLocation).toEqual({ pathname: '/certificate-report', search: `?courseId=${COURSE_ID}` });
  });

  it('keeps the chosen answers of the open attempt across a reload', async () => {
    const first = renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer });
    await screen.findByText('Answered 0 of 3');
    await choose(first.user, 1, 'Foam');
    await choose(first.user, 3, '12 hours');
    first.view.unmount();

    renderPage();
    await screen.findByText('Answered 2 of 3');
    // The server handed back the same open attempt; nothing new was started.
    expect(server.attempts).toBe(1);
    expect((within(question(1)).getByRole('radio', { name: 'Foam' }) as HTMLInputElement).checked).toBe(true);
    expect((within(question(3)).getByRole('radio', { name: '12 hours' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says the test opens after the training, in the server words, with the way to the training', async () => {
    server.refuseTake = serverError(403, T.trainingFirst);
    renderPage();
    await screen.findByText(T.trainingFirst);
    expect(screen.getByRole('heading', { level: 1, name: 'The test is not open yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the training' }).getAttribute('href')).toBe(`/training/${COURSE_ID}`);
    expect(screen.getByRole('link', { name: 'Back to Courses' }).getAttribute('href')).toBe('/UserCource');
    expect(screen.queryByRole('button', { name: /Submit Test/ })).toBeNull();
  });

  it("says so when the course has no test, and when the test could not be loaded offers to try again", async () => {
    server.refuseTake = serverError(404, T.noneForCourse);
    const { view } = renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer });
    await screen.findByRole('heading', { level: 1, name: T.noneForCourse });
    view.unmount();

    server.refuseTake = networkError();
    const user = renderPage();
    await screen.findByText(T.loadFailed);
    server.refuseTake = null;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Answered 0 of 3');
  });

  it('keeps the answers when a submission fails, with the catalogue message or the server one', async () => {
    server.refuseSubmit = networkError();
    const user = renderPage();
    await screen.findByText('Answered 0 of 3');
    await choose(user, 1, 'CO2');
    await choose(user, 2, 'Seven');
    await choose(user, 3, '8 hours');
    await user.click(submitButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(T.submitFailed)).toBeTruthy();
    expect(submitButton().disabled).toBe(false);
    expect(JSON.parse(window.sessionStorage.getItem('testAnswers_attempt-1')!)).toEqual({ q1: 'CO2', q2: 'Seven', q3: '8 hours' });

    server.refuseSubmit = serverError(400, T.unanswered(2));
    await user.click(submitButton());
    await waitFor(() => expect(within(screen.getByRole('alert')).getByText(T.unanswered(2))).toBeTruthy());

    // The server answered without a message of its own.
    server.refuseSubmit = serverError(500, '');
    await user.click(submitButton());
    await waitFor(() => expect(within(screen.getByRole('alert')).getByText(T.somethingWrong)).toBeTruthy());

    // Submitted elsewhere: the attempt is closed and the page offers to open the test again.
    server.refuseSubmit = serverError(409, T.notOpen);
    await user.click(submitButton());
    await waitFor(() => expect(within(screen.getByRole('alert')).getByText(T.notOpen)).toBeTruthy());
    server.refuseSubmit = null;
    server.open = null;
    await user.click(screen.getByRole('button', { name: 'Open the test again' }));
    await waitFor(() => expect(server.attempts).toBe(2));
    await screen.findByText('Answered 0 of 3');
    expect(server.submissions).toHaveLength(4);
  });
});

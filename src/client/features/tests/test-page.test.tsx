import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TTestResult, TTestSession, TTestStatus } from '../../../shared/schemas/tests.ts';
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
const PASS_MARK = 60;
const ALLOWED = 3;

/**
 * tests.status, tests.take and tests.submit as the server behaves: the status starts nothing;
 * opening starts an attempt (or hands back the open one); submitting scores it against a key the
 * page never sees, closes it and counts it. `state` forces a standing (the wait, the training...).
 */
const server = {
  attempts: 0,
  open: null as string | null,
  takeCalls: 0,
  submissions: [] as Array<Record<string, unknown>>,
  refuseStatus: null as Error | null,
  refuseTake: null as Error | null,
  refuseSubmit: null as Error | null,
  state: null as null | { state: TTestStatus['state']; message: string; nextAttemptAt?: string },
  blocked: undefined as TTestStatus['blocked'],
};

function session(attemptId: string): TTestSession {
  return {
    test: {
      id: 'test-1',
      course: { id: COURSE_ID, title: COURSE },
      title: `${COURSE} test`,
      passMark: PASS_MARK,
      waitMinutes: 0,
      questions: QUESTIONS.map(({ id, questionText, options }) => ({ id, questionText, options })),
    },
    attempt: { id: attemptId, startedAt: '2026-11-24T09:00:00.000Z', number: server.attempts, attemptsAllowed: ALLOWED },
  };
}

function status(): TTestStatus {
  const forced = server.state;
  const state = forced?.state ?? (server.open ? 'inProgress' : 'open');
  return {
    courseId: COURSE_ID,
    state,
    message: forced?.message ?? (state === 'inProgress' ? T.attemptInProgress : T.attemptsLeft(ALLOWED - server.attempts)),
    test: state === 'noTest' ? null : { id: 'test-1', title: `${COURSE} test`, passMark: PASS_MARK, questionCount: 3, waitMinutes: 0 },
    attemptsAllowed: ALLOWED,
    attemptsUsed: server.attempts,
    attemptsLeft: state === 'inProgress' ? ALLOWED - server.attempts : Math.max(0, ALLOWED - server.attempts),
    nextAttemptAt: forced?.nextAttemptAt ?? null,
    lastResult: null,
    ...(server.blocked ? { blocked: server.blocked } : {}),
  };
}

function answer(path: string, input: Record<string, unknown>): unknown {
  if (path === 'tests.status') {
    if (server.refuseStatus) throw server.refuseStatus;
    return status();
  }
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
    const wrong = answers.filter((given) => QUESTIONS.find((question) => question.id === given.questionId)?.correct !== given.selectedAnswer);
    const score = answers.length - wrong.length;
    const percentage = Math.round((score / QUESTIONS.length) * 10_000) / 100;
    const passed = score * 100 >= PASS_MARK * QUESTIONS.length;
    const attemptId = server.open!;
    server.open = null;
    const attemptsLeft = passed ? 0 : ALLOWED - server.attempts;
    return {
      message: passed ? T.scored(score, QUESTIONS.length, percentage, true) : `${T.scored(score, QUESTIONS.length, percentage, false)} ${T.attemptsLeft(attemptsLeft)}`,
      attemptId,
      testId: 'test-1',
      courseId: COURSE_ID,
      score,
      totalQuestions: QUESTIONS.length,
      percentage,
      passMark: PASS_MARK,
      passed,
      timeTakenSeconds: 185,
      startedAt: '2026-11-24T09:00:00.000Z',
      submittedAt: '2026-11-24T09:03:05.000Z',
      answers,
      certificate: passed ? { id: 'c-1', number: 'MTA/2026/000123', status: 'pending', issuedAt: '2026-11-24T09:03:05.000Z', pdfUrl: null } : null,
      attemptsLeft,
      nextAttemptAt: null,
      wrongQuestionIds: passed ? wrong.map((given) => given.questionId) : null,
    } satisfies TTestResult;
  }
  throw new Error(`unexpected call ${path}`);
}

function renderPage() {
  return renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer }).user;
}

const submitButton = () => screen.getByRole('button', { name: /Submit Test/ }) as HTMLButtonElement;
const question = (number: number) => screen.getByRole('group', { name: new RegExp(`^Question ${number} of 3`) });

/** The overview first: nothing starts until the learner presses Start. */
async function start(user: ReturnType<typeof renderPage>) {
  await user.click(await screen.findByRole('button', { name: /^Start attempt/ }));
}

async function choose(user: ReturnType<typeof renderPage>, number: number, option: string) {
  await user.click(within(question(number)).getByRole('radio', { name: option }));
}

beforeEach(() => {
  server.attempts = 0;
  server.open = null;
  server.takeCalls = 0;
  server.submissions = [];
  server.refuseStatus = null;
  server.refuseTake = null;
  server.refuseSubmit = null;
  server.state = null;
  server.blocked = undefined;
  window.sessionStorage.clear();
  // jsdom lays nothing out, so it has no scrolling.
  Element.prototype.scrollIntoView = () => undefined;
  window.scrollTo = () => undefined;
});

describe('the test page', { timeout: 20_000 }, () => {
  it('says what the test asks and the attempts left, starts nothing until Start, then numbers the questions as radio groups', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { level: 1, name: `${COURSE} test` });
    const button = await screen.findByRole('button', { name: 'Start attempt 1 of 3' });
    const facts = screen.getByRole('region', { name: 'About this test' });
    expect(facts.textContent).toContain('Questions3');
    expect(facts.textContent).toContain('Pass mark60%');
    expect(facts.textContent).toContain('Attempts left3 of 3');
    expect(server.takeCalls).toBe(0);

    await user.click(button);
    await screen.findByText('Attempt 1 of 3');
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

  it('after a fail says the score and the attempts left and no answer’s right or wrong; after a pass, which were wrong, and View Certificate', async () => {
    const user = renderPage();
    await start(user);
    await choose(user, 1, 'CO2');
    await choose(user, 2, 'Three');
    await choose(user, 3, '2 hours');
    expect(window.sessionStorage.getItem('testAnswers_attempt-1')).toBeTruthy();
    await user.click(submitButton());

    const message = `${T.scored(1, 3, 33.33, false)} ${T.attemptsLeft(2)}`;
    await screen.findByText(message);
    expect(server.submissions).toEqual([
      {
        testId: 'test-1',
        answers: [
          { questionId: 'q1', selectedAnswer: 'CO2' },
          { questionId: 'q2', selectedAnswer: 'Three' },
          { questionId: 'q3', selectedAnswer: '2 hours' },
        ],
      },
    ]);
    const panel = screen.getByRole('region', { name: 'Your result' });
    expect(panel.textContent).toContain('Attempts left2');
    expect(panel.textContent).not.toMatch(/review|not right/i);
    expect(screen.queryByRole('link', { name: /View Certificate/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Courses' }).getAttribute('href')).toBe('/UserCource');
    expect(window.sessionStorage.getItem('testAnswers_attempt-1')).toBeNull();
    // The result takes the focus, so a screen reader reads it next.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your result' }));

    // Try again goes back to the overview; Start opens a new attempt: a fresh form, nothing chosen.
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const again = await screen.findByRole('button', { name: 'Start attempt 2 of 3' });
    // Going back starts nothing: only Start does.
    expect(server.takeCalls).toBe(1);
    await user.click(again);
    await screen.findByText('Answered 0 of 3');
    expect(server.attempts).toBe(2);
    expect(screen.getAllByRole('radio').filter((radio) => (radio as HTMLInputElement).checked)).toHaveLength(0);

    await choose(user, 1, 'CO2');
    await choose(user, 2, 'Seven');
    await choose(user, 3, '2 hours');
    await user.click(submitButton());
    await screen.findByText(T.scored(2, 3, 66.67, true));
    expect(screen.getByRole('heading', { name: 'Congratulations!' })).toBeTruthy();
    const review = screen.getByRole('region', { name: '1 answer to review' });
    expect(review.textContent).toContain('Question 3: A lifejacket light must burn for at least how long?');
    expect(review.textContent).toContain('Your answer, not right: 2 hours');
    expect(review.textContent).not.toContain('8 hours');
    expect(screen.getByText('MTA/2026/000123')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Certificate' }).getAttribute('href')).toBe(`/certificate-report?courseId=${COURSE_ID}`);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByText('3 min 05 s')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'View Certificate' }));
    expect(currentLocation).toEqual({ pathname: '/certificate-report', search: `?courseId=${COURSE_ID}` });
  });

  it('resumes the open attempt after a reload, with its chosen answers', async () => {
    const first = renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer });
    await start(first.user);
    await screen.findByText('Answered 0 of 3');
    await choose(first.user, 1, 'Foam');
    await choose(first.user, 3, '12 hours');
    first.view.unmount();

    renderPage();
    await screen.findByText('Answered 2 of 3');
    // The server handed back the same open attempt, asked for once; nothing new was started.
    expect(server.takeCalls).toBe(2);
    expect(server.attempts).toBe(1);
    expect((within(question(1)).getByRole('radio', { name: 'Foam' }) as HTMLInputElement).checked).toBe(true);
    expect((within(question(3)).getByRole('radio', { name: '12 hours' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says when the next attempt opens, counting down, and offers no Start meanwhile', async () => {
    const opensAt = new Date(Date.now() + 90_000).toISOString();
    server.state = { state: 'waiting', message: T.nextAttemptAt('14:40 IST', 2), nextAttemptAt: opensAt };
    renderPage();
    const alert = await screen.findByText(/^Your next attempt opens at \d{1,2}:\d{2} (am|pm)$/);
    expect(alert).toBeTruthy();
    expect(screen.getByText(/^in 1 min (29|30) s$/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Start attempt/ })).toBeNull();
    expect(server.takeCalls).toBe(0);
  });

  it('says why the test is closed, in the server words, with the way to the training', async () => {
    server.state = { state: 'exhausted', message: T.attemptsUsed(3) };
    const { view } = renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer });
    await screen.findByText(T.attemptsUsed(3));
    expect(screen.getByText('The test is closed for now')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the training' }).getAttribute('href')).toBe(`/training/${COURSE_ID}`);
    expect(screen.queryByRole('button', { name: /Start attempt/ })).toBeNull();
    view.unmount();

    server.state = { state: 'training', message: T.trainingFirst };
    renderPage();
    await screen.findByText(T.trainingFirst);
    expect(screen.getByText('The test is not open yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the training' }).getAttribute('href')).toBe(`/training/${COURSE_ID}`);
    expect(screen.queryByRole('button', { name: /Submit Test/ })).toBeNull();
    expect(server.takeCalls).toBe(0);
  });

  it('says the refusal when an attempt cannot start after all, and leads back to the overview', async () => {
    const user = renderPage();
    server.refuseTake = serverError(429, T.nextAttemptAt('14:40 IST', 9));
    await start(user);
    await screen.findByText(T.nextAttemptAt('14:40 IST', 9));
    server.refuseTake = null;
    await user.click(screen.getByRole('button', { name: 'Back to the test overview' }));
    await screen.findByRole('button', { name: /^Start attempt/ });
  });

  it('says the course needs an approved seafarer profile first, with the way to the profile and no Start', async () => {
    const required = MESSAGES.courseCertificate.profileRequired;
    server.blocked = { reason: 'profileRequired', message: required };
    const first = renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer });
    await screen.findByText(required);
    expect(screen.queryByRole('button', { name: /^Start attempt/ })).toBeNull();
    await first.user.click(screen.getByRole('link', { name: 'Go to your profile' }));
    expect(currentLocation.pathname).toBe('/profile');
    expect(server.takeCalls).toBe(0);
    first.view.unmount();

    // Refused at the start after all (the profile changed meanwhile): the same words and link.
    server.blocked = undefined;
    server.refuseTake = serverError(403, required);
    const user = renderPage();
    await start(user);
    await screen.findByText(required);
    expect(screen.getByRole('link', { name: 'Go to your profile' }).getAttribute('href')).toBe('/profile');
  });

  it("says so when the course has no test, and when the test could not be loaded offers to try again", async () => {
    server.state = { state: 'noTest', message: T.noneForCourse };
    const { view } = renderWithServer(<TestPage />, { url: `/testPage/${COURSE_ID}`, pattern: '/testPage/:courseId', answer });
    await screen.findByRole('heading', { level: 1, name: T.noneForCourse });
    view.unmount();
    server.state = null;

    server.refuseStatus = networkError();
    const user = renderPage();
    await screen.findByText(T.loadFailed);
    server.refuseStatus = null;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('button', { name: /^Start attempt/ });
  });

  it('keeps the answers when a submission fails, with the catalogue message or the server one', async () => {
    server.refuseSubmit = networkError();
    const user = renderPage();
    await start(user);
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

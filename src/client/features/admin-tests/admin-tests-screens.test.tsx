import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useEffect } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/router.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTest, TResultItem } from '../../../shared/schemas/tests.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { AllTestsPage } from '@/features/admin-tests/all-tests-page.tsx';
import { PublishedTestsPage } from '@/features/admin-tests/published-tests-page.tsx';
import { TestFormPage } from '@/features/admin-tests/test-form-page.tsx';
import { TestResultsPage } from '@/features/admin-tests/test-results-page.tsx';
import { trpc } from '@/lib/trpc.ts';
import { fakeTrpcLink, knowStaffRole, staffMember } from '@/testing/fake-trpc.tsx';

const T = MESSAGES.tests;
const COURSE_A = '5b7e2c36-6c1a-4a4e-9d43-000000000001';
const COURSE_B = '5b7e2c36-6c1a-4a4e-9d43-000000000002';

function course(id: string, title: string, isActive = true): TCourse {
  return { id, title, isActive, description: 'd', duration: '3 days', price: 1000, category: 'STCW', subjects: ['x'], image: null } as unknown as TCourse;
}

function adminTest(id: string, title: string, isPublished: boolean): TAdminTest {
  return {
    id,
    title,
    isPublished,
    passMark: 60,
    createdAt: '2026-11-20T09:00:00.000Z',
    course: { id: COURSE_A, title, isActive: true },
    questions: [
      { id: `${id}-q1`, position: 1, questionText: 'Which extinguisher suits an electrical fire?', options: ['Water', 'CO2', 'Foam', 'Wet sand'], correctAnswer: 'CO2' },
    ],
    questionsPerAttempt: null,
    attemptsAllowed: 3,
    waitMinutes: 10,
  };
}

function result(id: string, name: string, passed: boolean): TResultItem {
  return {
    id,
    user: { id: `u-${id}`, name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` },
    course: { id: COURSE_A, title: 'Bridge Resource Management' },
    test: { id: 't1', title: 'Bridge Resource Management', passMark: 50 },
    score: passed ? 2 : 0,
    totalQuestions: 2,
    percentage: passed ? 100 : 0,
    timeTakenSeconds: 95,
    startedAt: '2026-11-20T09:00:00.000Z',
    submittedAt: '2026-11-20T09:01:35.000Z',
    passed,
    certificate: passed ? { id: `c-${id}`, number: 'MTA/2026/000042', status: 'ready', revokedAt: null, pdfUrl: '/certificates/0123456789abcdef0123456789abcdef0123.pdf' } : null,
    answers: [
      { questionId: 'q1', position: 1, questionText: 'Compressions per minute?', selectedAnswer: passed ? '100 to 120' : '60', correctAnswer: '100 to 120', isCorrect: passed },
    ],
  };
}

const error = (code: string, httpStatus: number, message: string, fields?: Record<string, string>) =>
  TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus, fields: fields ?? null } } });

/** The server's procedures the screens call, over lists kept here; `fail` makes a call throw. */
const server = {
  staffRole: 'owner' as TStaffRole,
  courses: [] as TCourse[],
  tests: [] as TAdminTest[],
  results: [] as TResultItem[],
  calls: [] as Array<{ path: string; input: unknown }>,
  fail: {} as Record<string, TRPCClientError<AppRouter> | undefined>,
  /** When set, results answer this total as a lower bound (too many to count). */
  resultsAtLeast: undefined as number | undefined,
  /** When set, a policy change is answered only once this settles (the dialog's pending state). */
  policyGate: undefined as Promise<void> | undefined,
};

function answer(path: string, input: Record<string, unknown> | undefined): unknown {
  // The signed-in member: the screen offers what their role may do.
  if (path === 'auth.me') return staffMember(server.staffRole);
  server.calls.push({ path, input });
  const failure = server.fail[path];
  if (failure) throw failure;
  switch (path) {
    case 'courses.adminList':
      return server.courses;
    case 'tests.list':
      return server.tests;
    case 'tests.published':
      return server.tests.filter((test) => test.isPublished);
    case 'tests.publish':
    case 'tests.unpublish': {
      const test = server.tests.find((candidate) => candidate.id === input!.testId)!;
      test.isPublished = path === 'tests.publish';
      return { message: test.isPublished ? T.published : T.unpublished, test };
    }
    case 'tests.create':
      return { message: T.created, test: adminTest('new', String(input!.title), false) };
    case 'tests.results': {
      const search = String(input!.search).toLowerCase();
      const matching = server.results.filter((item) => item.user.name.toLowerCase().includes(search) || item.course.title.toLowerCase().includes(search));
      const page = Number(input!.page);
      const pageSize = Number(input!.pageSize);
      const items = matching.slice((page - 1) * pageSize, page * pageSize);
      if (server.resultsAtLeast !== undefined) return { items, total: server.resultsAtLeast, page, pageSize, totalIsEstimate: true };
      return { items, total: matching.length, page, pageSize };
    }
    case 'tests.updatePolicy':
      return (server.policyGate ?? Promise.resolve()).then(() => {
        // A new list, as the server's next answer would be: the screen must reload it to show the change.
        const { questionsPerAttempt, attemptsAllowed, waitMinutes } = input as Pick<TAdminTest, 'questionsPerAttempt' | 'attemptsAllowed' | 'waitMinutes'>;
        server.tests = server.tests.map((test) => (test.id === input!.testId ? { ...test, questionsPerAttempt, attemptsAllowed, waitMinutes } : test));
        return { message: T.policySaved, test: server.tests.find((test) => test.id === input!.testId)! };
      });
    case 'tests.grantAttempts':
      return { message: T.attemptsGranted(Number(input!.attempts), 1), attemptsLeft: 1 };
    case 'certificates.revoke': {
      const revoked = server.results.find((item) => item.certificate?.id === input!.certificateId)!;
      revoked.certificate = { ...revoked.certificate!, revokedAt: '2026-11-24T10:00:00.000Z' };
      return revoked.certificate;
    }
    default:
      return undefined;
  }
}

const fakeServer = fakeTrpcLink(answer);

/** The address the screen is at, as the router has it. */
const seen = { location: '' };
function Where() {
  const current = useLocation();
  useEffect(() => {
    seen.location = current.pathname + current.search;
  }, [current]);
  return null;
}

function renderAt(at: string, page: ReactNode, staffRole?: TStaffRole) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  if (staffRole) {
    // The member the server knows, already in the cache (the role is read again as the screen opens).
    server.staffRole = staffRole;
    knowStaffRole(queryClient, staffRole);
  }
  const client = trpc.createClient({ links: [fakeServer] });
  render(
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[at]}>
          {page}
          <Where />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return userEvent.setup();
}

const callsTo = (path: string) => server.calls.filter((call) => call.path === path);

beforeEach(() => {
  server.staffRole = 'owner';
  server.courses = [
    course(COURSE_A, 'Bridge Resource Management'),
    course(COURSE_B, 'Bridge Resource Management'),
    course('5b7e2c36-6c1a-4a4e-9d43-000000000003', 'Advanced Fire Fighting'),
    course('5b7e2c36-6c1a-4a4e-9d43-000000000004', 'Retired Course', false),
  ];
  server.tests = [adminTest('t1', 'Bridge Resource Management', false), adminTest('t2', 'Advanced Fire Fighting', true)];
  server.results = [];
  server.calls = [];
  server.fail = {};
  server.resultsAtLeast = undefined;
  server.policyGate = undefined;
  // Radix's Select measures and scrolls what jsdom does not lay out.
  Element.prototype.scrollIntoView = () => {};
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => {};
});

afterEach(() => {
  toast.dismiss();
});

async function fillQuestion(user: ReturnType<typeof userEvent.setup>, group: HTMLElement, text: string, options: string[], correct: string) {
  await user.type(within(group).getByLabelText('Question text'), text);
  for (const [index, letter] of ['A', 'B', 'C', 'D'].entries()) await user.type(within(group).getByLabelText(`Option ${letter}`), options[index]!);
  await user.click(within(group).getByRole('radio', { name: new RegExp(`^${correct}`) }));
}

// Typing a whole test key by key takes a while in jsdom.
describe('Create New Test', { timeout: 30_000 }, () => {
  it('offers each active course once by title, fills the read-only title, and checks the form before sending', async () => {
    const user = renderAt('/admin-dashboard/test-form', <TestFormPage />);
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.courseRequired)).toBeTruthy();
    expect(screen.getByText(T.passMarkRequired)).toBeTruthy();
    expect(screen.getByText(T.questionRequired)).toBeTruthy();
    expect(screen.getAllByText(T.optionRequired)).toHaveLength(4);
    expect(screen.getByText(T.correctAnswerRequired)).toBeTruthy();
    expect(callsTo('tests.create')).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Advanced Fire Fighting', 'Bridge Resource Management']);
    await user.click(screen.getByRole('option', { name: 'Bridge Resource Management' }));
    const title = screen.getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Bridge Resource Management');
    expect(title.readOnly).toBe(true);

    await user.type(screen.getByLabelText('Pass mark (%)'), '150');
    const first = screen.getByRole('group', { name: 'Question 1' });
    await fillQuestion(user, first, 'Who keeps the watch?', ['Master', 'OOW', 'Bosun', 'Master'], 'B');
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.passMarkRange)).toBeTruthy();
    expect(screen.getByText(T.optionsDistinct)).toBeTruthy();
    expect(callsTo('tests.create')).toEqual([]);
  });

  it('adds and removes questions, keeping at least one, sends the chosen option as the answer, then starts again', async () => {
    const user = renderAt('/admin-dashboard/test-form', <TestFormPage />);
    expect(screen.queryByRole('button', { name: 'Remove question 1' })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    await user.click(await screen.findByRole('option', { name: 'Advanced Fire Fighting' }));
    await user.type(screen.getByLabelText('Pass mark (%)'), '60');
    await fillQuestion(user, screen.getByRole('group', { name: 'Question 1' }), 'Electrical fire?', ['Water', 'CO2', 'Foam', 'Sand'], 'B');
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    const second = screen.getByRole('group', { name: 'Question 2' });
    expect(document.activeElement).toBe(within(second).getByLabelText('Question text'));
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    await user.click(screen.getByRole('button', { name: 'Remove question 3' }));
    expect(screen.queryByRole('group', { name: 'Question 3' })).toBeNull();
    await fillQuestion(user, second, 'Alarm blasts?', ['Three', 'Five', 'Seven', 'Nine'], 'C');
    // The choice lists the options as typed.
    expect(within(second).getByRole('radio', { name: /^C\.\s*Seven$/ })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.created)).toBeTruthy();
    expect(callsTo('tests.create').map((call) => call.input)).toEqual([
      {
        courseId: '5b7e2c36-6c1a-4a4e-9d43-000000000003',
        title: 'Advanced Fire Fighting',
        passMark: 60,
        questions: [
          { questionText: 'Electrical fire?', options: ['Water', 'CO2', 'Foam', 'Sand'], correctAnswer: 'CO2' },
          { questionText: 'Alarm blasts?', options: ['Three', 'Five', 'Seven', 'Nine'], correctAnswer: 'Seven' },
        ],
        // The attempts policy's defaults, as the form starts with them.
        questionsPerAttempt: null,
        attemptsAllowed: 3,
        waitMinutes: 10,
      },
    ]);
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe(''));
    expect(screen.getAllByRole('group', { name: /^Question \d$/ })).toHaveLength(1);
    expect((screen.getByLabelText('Question text') as HTMLTextAreaElement).value).toBe('');
  });

  it('sets the attempts policy: questions drawn per attempt, attempts allowed and the wait, checked before sending', async () => {
    const user = renderAt('/admin-dashboard/test-form', <TestFormPage />);
    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    await user.click(await screen.findByRole('option', { name: 'Advanced Fire Fighting' }));
    await user.type(screen.getByLabelText('Pass mark (%)'), '60');
    await fillQuestion(user, screen.getByRole('group', { name: 'Question 1' }), 'Electrical fire?', ['Water', 'CO2', 'Foam', 'Sand'], 'B');
    expect((screen.getByLabelText('Attempts allowed') as HTMLInputElement).value).toBe('3');
    expect((screen.getByLabelText('Wait between attempts (minutes)') as HTMLInputElement).value).toBe('10');
    expect(screen.getByText('Empty: all 1 asked.')).toBeTruthy();

    await user.type(screen.getByLabelText('Questions per attempt'), '2');
    await user.clear(screen.getByLabelText('Attempts allowed'));
    await user.clear(screen.getByLabelText('Wait between attempts (minutes)'));
    await user.type(screen.getByLabelText('Wait between attempts (minutes)'), '-5');
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.attemptsAllowedRange(20))).toBeTruthy();
    expect(screen.getByText(T.waitMinutesRange(10080))).toBeTruthy();
    await user.type(screen.getByLabelText('Attempts allowed'), '2');
    await user.clear(screen.getByLabelText('Wait between attempts (minutes)'));
    await user.type(screen.getByLabelText('Wait between attempts (minutes)'), '30');
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.questionsPerAttemptTooMany(1))).toBeTruthy();
    expect(callsTo('tests.create')).toEqual([]);

    await user.clear(screen.getByLabelText('Questions per attempt'));
    await user.type(screen.getByLabelText('Questions per attempt'), '1');
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.created)).toBeTruthy();
    expect(callsTo('tests.create').at(-1)!.input).toMatchObject({ questionsPerAttempt: 1, attemptsAllowed: 2, waitMinutes: 30 });
  });

  it("puts the server's field errors on their fields and says its message, or 'Something went wrong'", async () => {
    server.fail['tests.create'] = error('BAD_REQUEST', 400, T.courseNotActive, { courseId: T.courseNotActive, 'questions.0.options.1': 'Option is too long' });
    const user = renderAt('/admin-dashboard/test-form', <TestFormPage />);
    await user.click(screen.getByRole('combobox', { name: 'Course' }));
    await user.click(await screen.findByRole('option', { name: 'Advanced Fire Fighting' }));
    await user.type(screen.getByLabelText('Pass mark (%)'), '60');
    await fillQuestion(user, screen.getByRole('group', { name: 'Question 1' }), 'Electrical fire?', ['Water', 'CO2', 'Foam', 'Sand'], 'B');
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText('Option is too long')).toBeTruthy();
    expect(screen.getByLabelText('Option B').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(T.courseNotActive).length).toBeGreaterThanOrEqual(2);
    // Nothing was lost: the form keeps what was typed.
    expect((screen.getByLabelText('Question text') as HTMLTextAreaElement).value).toBe('Electrical fire?');

    server.fail['tests.create'] = TRPCClientError.from({ error: { message: '', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } });
    await user.click(screen.getByRole('button', { name: 'Submit Test' }));
    expect(await screen.findByText(T.createFailed)).toBeTruthy();
  });
});

describe('All Created Tests and Published Tests', () => {
  it('lists every test with its state; the questions open with lettered options and the answer; Publish changes the state', async () => {
    const user = renderAt('/admin-dashboard/All-tests', <AllTestsPage />);
    const card = await screen.findByRole('article', { name: 'Bridge Resource Management' });
    expect(within(card).getByText('Unpublished')).toBeTruthy();
    expect(card.textContent).toContain('60%');
    expect(within(screen.getByRole('article', { name: 'Advanced Fire Fighting' })).getByText('Published')).toBeTruthy();

    const show = within(card).getByRole('button', { name: 'Show the question' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await user.click(show);
    expect(show.getAttribute('aria-expanded')).toBe('true');
    const options = within(card).getAllByRole('listitem').map((item) => item.textContent);
    expect(options).toEqual(expect.arrayContaining(['A.Water', 'B.CO2Answer', 'C.Foam', 'D.Wet sand']));

    await user.click(within(card).getByRole('button', { name: 'Publish Bridge Resource Management' }));
    expect(await screen.findByText(T.published)).toBeTruthy();
    expect(callsTo('tests.publish').map((call) => call.input)).toEqual([{ testId: 't1' }]);
    await within(card).findByRole('button', { name: 'Unpublish Bridge Resource Management' });

    server.fail['tests.unpublish'] = error('INTERNAL_SERVER_ERROR', 500, 'Internal error');
    await user.click(within(card).getByRole('button', { name: 'Unpublish Bridge Resource Management' }));
    expect(await screen.findByText(T.publishFailed)).toBeTruthy();
    expect(within(card).getByText('Published')).toBeTruthy();
  });

  it("says 'Failed to fetch tests.' with a way to try again, and what to do when there is none", async () => {
    server.fail['tests.list'] = error('INTERNAL_SERVER_ERROR', 500, 'Internal error');
    const user = renderAt('/admin-dashboard/All-tests', <AllTestsPage />);
    expect(await screen.findByText(T.fetchFailed)).toBeTruthy();
    server.fail['tests.list'] = undefined;
    server.tests = [];
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No tests yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create Test' }).getAttribute('href')).toBe('/admin-dashboard/test-form');
  });

  it('changes a test’s attempts policy in a dialog: the server’s field errors under their boxes, Save pending until it answers, a toast, the card refreshed', async () => {
    const user = renderAt('/admin-dashboard/All-tests', <AllTestsPage />);
    const card = await screen.findByRole('article', { name: 'Bridge Resource Management' });
    expect(card.textContent).toContain('All');
    expect(card.textContent).toContain('3 per round');
    expect(card.textContent).toContain('10 min');

    const edit = within(card).getByRole('button', { name: 'Edit policy of Bridge Resource Management' });
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Edit attempts policy' });
    const perAttempt = within(dialog).getByLabelText('Questions per attempt') as HTMLInputElement;
    const attempts = within(dialog).getByLabelText('Attempts allowed') as HTMLInputElement;
    const wait = within(dialog).getByLabelText('Wait in minutes') as HTMLInputElement;
    expect([perAttempt.value, attempts.value, wait.value]).toEqual(['', '3', '10']);
    await waitFor(() => expect(document.activeElement).toBe(perAttempt));
    expect(within(dialog).getByText('Empty: all 1 asked.')).toBeTruthy();

    // Refused: the server's words under the box it is about, focus on it, the dialog still open.
    server.fail['tests.updatePolicy'] = error('BAD_REQUEST', 400, T.attemptsAllowedRange(20), { attemptsAllowed: T.attemptsAllowedRange(20) });
    await user.clear(attempts);
    await user.type(attempts, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(T.attemptsAllowedRange(20))).toBeTruthy();
    expect(attempts.getAttribute('aria-invalid')).toBe('true');
    expect(attempts.getAttribute('aria-describedby')).toContain(`${attempts.id}-error`);
    expect(document.activeElement).toBe(attempts);
    expect(callsTo('tests.updatePolicy').at(-1)!.input).toEqual({ testId: 't1', questionsPerAttempt: null, attemptsAllowed: 0, waitMinutes: 10 });

    // Saved with Enter; Save waits for the server, then the toast, the card with the new policy, focus back on Edit policy.
    server.fail['tests.updatePolicy'] = undefined;
    let answer!: () => void;
    server.policyGate = new Promise((resolve) => (answer = resolve));
    await user.type(perAttempt, '1');
    await user.clear(attempts);
    await user.type(attempts, '2');
    await user.clear(wait);
    await user.type(wait, '30{Enter}');
    const saving = await within(dialog).findByRole('button', { name: 'Saving…' });
    expect(saving.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
    answer();
    expect(await screen.findByText(T.policySaved)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo('tests.updatePolicy').at(-1)!.input).toEqual({ testId: 't1', questionsPerAttempt: 1, attemptsAllowed: 2, waitMinutes: 30 });
    await waitFor(() => expect(card.textContent).toContain('1 at random'));
    expect(card.textContent).toContain('2 per round');
    expect(card.textContent).toContain('30 min');
    expect(callsTo('tests.list').length).toBeGreaterThan(1);
    await waitFor(() => expect(document.activeElement).toBe(edit));
  });

  it('closes the policy dialog with Escape, changing nothing, and opens it again with the test’s policy', async () => {
    const user = renderAt('/admin-dashboard/All-tests', <AllTestsPage />);
    const card = await screen.findByRole('article', { name: 'Advanced Fire Fighting' });
    await user.click(within(card).getByRole('button', { name: 'Edit policy of Advanced Fire Fighting' }));
    const attempts = (await screen.findByLabelText('Attempts allowed')) as HTMLInputElement;
    await user.clear(attempts);
    await user.type(attempts, '7');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo('tests.updatePolicy')).toEqual([]);
    await user.click(within(card).getByRole('button', { name: 'Edit policy of Advanced Fire Fighting' }));
    expect(((await screen.findByLabelText('Attempts allowed')) as HTMLInputElement).value).toBe('3');
  });

  it('lists only the published tests, without a publish button', async () => {
    renderAt('/admin-dashboard/Published-tests', <PublishedTestsPage />);
    const card = await screen.findByRole('article', { name: 'Advanced Fire Fighting' });
    expect(screen.queryByRole('article', { name: 'Bridge Resource Management' })).toBeNull();
    expect(within(card).queryByRole('button', { name: /Publish/ })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Edit policy of Advanced Fire Fighting' })).toBeTruthy();
  });
});

describe('Test Results', () => {
  it('searches on the server, keeps the search in the address, and shows each result with its answers', async () => {
    server.results = [result('r1', 'Kavya Menon', true), result('r2', 'Rohan Pillai', false)];
    const user = renderAt('/admin-dashboard/user-results', <TestResultsPage />);
    expect(await screen.findByRole('article', { name: 'Kavya Menon' })).toBeTruthy();
    expect(screen.getByText('2 results')).toBeTruthy();

    await user.type(screen.getByRole('searchbox'), 'rohan');
    await waitFor(() => expect(seen.location).toBe('/admin-dashboard/user-results?q=rohan'));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Kavya Menon' })).toBeNull());
    const card = screen.getByRole('article', { name: 'Rohan Pillai' });
    expect(callsTo('tests.results').at(-1)!.input).toMatchObject({ search: 'rohan', page: 1 });
    expect(within(card).getByText('Failed')).toBeTruthy();
    expect(card.textContent).toContain('0 / 2');
    expect(card.textContent).toContain('95 s');
    expect(card.textContent).toContain('rohan@example.com');
    await user.click(within(card).getByRole('button', { name: 'Show answers' }));
    expect(within(card).getByText('60')).toBeTruthy();
    expect(card.textContent).toContain('Correct: 100 to 120');
  });

  it('shows the certificate a pass earned, and revokes it after the confirm dialog, with the reason', async () => {
    server.results = [result('r1', 'Kavya Menon', true), result('r2', 'Rohan Pillai', false)];
    const user = renderAt('/admin-dashboard/user-results', <TestResultsPage />);
    const card = await screen.findByRole('article', { name: 'Kavya Menon' });
    expect(within(card).getByText('Certificate issued')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Open PDF' }).getAttribute('href')).toBe('/certificates/0123456789abcdef0123456789abcdef0123.pdf');
    expect(within(screen.getByRole('article', { name: 'Rohan Pillai' })).queryByText(/Certificate/)).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Revoke certificate MTA/2026/000042' }));
    await user.type(await screen.findByLabelText(/Reason/), 'Identity document forged');
    await user.click(screen.getByRole('button', { name: 'Yes, Revoke' }));
    await waitFor(() => expect(within(screen.getByRole('article', { name: 'Kavya Menon' })).getByText('Certificate revoked')).toBeTruthy());
    expect(callsTo('certificates.revoke').at(-1)!.input).toEqual({ certificateId: 'c-r1', reason: 'Identity document forged' });
    expect(within(screen.getByRole('article', { name: 'Kavya Menon' })).queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('grants the learner of a failed attempt another attempt after the confirm dialog, and says so', async () => {
    server.results = [result('r1', 'Kavya Menon', true), result('r2', 'Rohan Pillai', false)];
    const user = renderAt('/admin-dashboard/user-results', <TestResultsPage />);
    const failed = await screen.findByRole('article', { name: 'Rohan Pillai' });
    expect(within(screen.getByRole('article', { name: 'Kavya Menon' })).queryByRole('button', { name: /Grant/ })).toBeNull();

    await user.click(within(failed).getByRole('button', { name: 'Grant Rohan Pillai another attempt at Bridge Resource Management' }));
    expect(await screen.findByText(/one more attempt at the test of Bridge Resource Management/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes, Grant' }));
    expect(await screen.findByText(T.attemptsGranted(1, 1))).toBeTruthy();
    expect(callsTo('tests.grantAttempts').map((call) => call.input)).toEqual([{ userId: 'u-r2', courseId: COURSE_A, attempts: 1 }]);
  });

  it('opens at the search in the address, says when nothing matches, and offers no export of nothing', async () => {
    server.results = [result('r1', 'Kavya Menon', true)];
    renderAt('/admin-dashboard/user-results?q=nobody', <TestResultsPage />);
    expect(await screen.findByText('No results match your search.')).toBeTruthy();
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('nobody');
    expect(screen.getByRole('button', { name: 'Export CSV' }).hasAttribute('disabled')).toBe(true);
  });

  it('says "10,000+ results" when the server counted only up to its bound', async () => {
    server.results = [result('r1', 'Kavya Menon', true), result('r2', 'Rohan Das', false)];
    server.resultsAtLeast = 10_000;
    renderAt('/admin-dashboard/user-results', <TestResultsPage />);
    expect(await screen.findByText('10,000+ results')).toBeTruthy();
  });

  it("says 'Failed to fetch test submissions' when the results cannot be loaded", async () => {
    server.fail['tests.results'] = error('INTERNAL_SERVER_ERROR', 500, 'Internal error');
    renderAt('/admin-dashboard/user-results', <TestResultsPage />);
    expect(await screen.findByText(T.resultsFailed)).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
  });
});

describe('Tests as each role sees them', () => {
  it('shows an auditor every test and its policy, with no Publish, Unpublish, policy change or Create Test', async () => {
    renderAt('/admin-dashboard/All-tests', <AllTestsPage />, 'auditor');
    const card = await screen.findByRole('article', { name: 'Bridge Resource Management' });
    expect(within(card).getByRole('button', { name: 'Show the question' })).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^(Publish|Unpublish|Edit policy of) / })).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Create Test' })).toBeNull();
  });

  it('shows an auditor the results and the evidence behind a certificate, with no Revoke or Grant', async () => {
    server.results = [result('r1', 'Kavya Menon', true), result('r2', 'Rohan Pillai', false)];
    renderAt('/admin-dashboard/user-results', <TestResultsPage />, 'auditor');
    const passed = await screen.findByRole('article', { name: 'Kavya Menon' });
    expect(within(passed).getByRole('link', { name: 'Evidence for certificate MTA/2026/000042' })).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^(Revoke certificate|Grant) / })).toEqual([]);
  });

  it('offers an instructor Grant on a failed attempt, but neither Revoke nor the certificate’s evidence', async () => {
    server.results = [result('r1', 'Kavya Menon', true), result('r2', 'Rohan Pillai', false)];
    renderAt('/admin-dashboard/user-results', <TestResultsPage />, 'instructor');
    const failed = await screen.findByRole('article', { name: 'Rohan Pillai' });
    expect(within(failed).getByRole('button', { name: 'Grant Rohan Pillai another attempt at Bridge Resource Management' })).toBeTruthy();
    const passed = screen.getByRole('article', { name: 'Kavya Menon' });
    expect(within(passed).getByText('Certificate issued')).toBeTruthy();
    expect(within(passed).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(within(passed).queryByRole('link', { name: /Evidence/ })).toBeNull();
  });
});

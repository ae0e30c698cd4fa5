import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCertificateEvidence } from '../../../shared/schemas/evidence.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { CertificateEvidencePage } from '@/features/admin-evidence/certificate-evidence-page.tsx';
import { formatMoment } from '@/features/admin-evidence/evidence-format.ts';
import { EvidenceExportPage } from '@/features/admin-evidence/evidence-export-page.tsx';
import { networkError, renderWithServer, serverError, staffMember } from '@/testing/fake-trpc.tsx';

const E = MESSAGES.evidence;
const CERTIFICATE_ID = '9c1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';
const COURSE_ID = '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';
const PATTERN = '/admin-dashboard/certificate-evidence/:certificateId';

function evidence(extra: Partial<TCertificateEvidence['certificate']> = {}): TCertificateEvidence {
  return {
    certificate: { id: CERTIFICATE_ID, number: 'MTA/2026/000042', issuedAt: '2026-11-26T08:02:00.000Z', revokedAt: null, revokeReason: null, ...extra },
    holder: { name: 'Kavya Sailor', email: 'kavya@example.com' },
    audit: [],
    course: { id: COURSE_ID, title: 'Fire Prevention and Fire Fighting' },
    parts: [
      {
        serial: 1,
        title: 'Fire drill',
        durationSeconds: 30,
        firstWatchedAt: '2026-11-26T08:00:00.000Z',
        lastWatchedAt: '2026-11-26T08:00:30.000Z',
        watchedSeconds: 30,
        timedSeconds: 30,
        completedAt: '2026-11-26T08:00:30.000Z',
        refusals: [{ at: '2026-11-26T08:00:00.000Z', reason: "ahead of the server's clock", claimedFrom: 0, claimedTo: 20, creditedSeconds: 2 }],
      },
      {
        serial: 2,
        title: 'Breathing apparatus',
        durationSeconds: 125,
        firstWatchedAt: '2026-11-26T08:01:00.000Z',
        lastWatchedAt: '2026-11-26T08:03:05.000Z',
        watchedSeconds: 124.6,
        timedSeconds: 126.2,
        completedAt: null,
        refusals: [],
      },
    ],
    attempts: [
      {
        number: 1,
        startedAt: '2026-11-26T08:00:30.000Z',
        submittedAt: '2026-11-26T08:02:05.000Z',
        score: 1,
        totalQuestions: 2,
        percentage: 50,
        passed: false,
        questions: [
          { questionText: 'Which extinguisher suits an electrical fire?', options: ['Foam', 'Water', 'CO2', 'Wet sand'], selectedAnswer: 'Water', correctAnswer: 'CO2', correct: false },
          { questionText: 'How long must a lifejacket light burn?', options: ['8 hours', '2 hours', '4 hours', '12 hours'], selectedAnswer: '8 hours', correctAnswer: '8 hours', correct: true },
        ],
      },
      {
        number: 2,
        startedAt: '2026-11-26T08:03:30.000Z',
        submittedAt: '2026-11-26T08:04:10.000Z',
        score: 2,
        totalQuestions: 2,
        percentage: 100,
        passed: true,
        questions: [
          { questionText: 'How long must a lifejacket light burn?', options: ['2 hours', '12 hours', '8 hours', '4 hours'], selectedAnswer: '8 hours', correctAnswer: '8 hours', correct: true },
          { questionText: 'Which extinguisher suits an electrical fire?', options: ['CO2', 'Wet sand', 'Water', 'Foam'], selectedAnswer: 'CO2', correctAnswer: 'CO2', correct: true },
        ],
      },
    ],
  };
}

const server = { evidence: evidence() as TCertificateEvidence | null, failure: null as Error | null, calls: [] as string[] };

function answer(path: string, input: Record<string, unknown>): unknown {
  // The signed-in member: an owner unless the test opens the page as another role.
  if (path === 'auth.me') return staffMember('owner');
  server.calls.push(path);
  if (path === 'evidence.certificate') {
    if (server.failure) throw server.failure;
    if (!server.evidence || input.certificateId !== server.evidence.certificate.id) throw serverError(404, E.notFound);
    return server.evidence;
  }
  if (path === 'courses.adminList') {
    return [
      { id: COURSE_ID, title: 'Fire Prevention and Fire Fighting', isActive: true },
      { id: '7a2e3b9c-4d5e-4f60-8b12-c3d4e5f6a7b8', title: 'Advanced Fire Fighting', isActive: false },
    ];
  }
  throw new Error(`unexpected call ${path}`);
}

const openEvidence = (certificateId = CERTIFICATE_ID, staffRole?: TStaffRole) =>
  renderWithServer(<CertificateEvidencePage />, { url: `/admin-dashboard/certificate-evidence/${certificateId}`, pattern: PATTERN, answer, ...(staffRole ? { staffRole } : {}) }).user;

beforeEach(() => {
  server.evidence = evidence();
  server.failure = null;
  server.calls = [];
});

afterEach(() => {
  toast.dismiss();
  vi.unstubAllGlobals();
});

describe('one certificate’s evidence', () => {
  it('shows the certificate, each part with its times and refused reports, and each attempt with its questions marked right or wrong', async () => {
    openEvidence();
    expect(await screen.findByRole('heading', { name: 'MTA/2026/000042', level: 2 })).toBeTruthy();
    expect(screen.getByText('Kavya Sailor')).toBeTruthy();
    expect(screen.getByText('Fire Prevention and Fire Fighting')).toBeTruthy();
    expect(screen.getByText('Valid')).toBeTruthy();

    // Part 1: completed, with the report the server refused, its reason, claimed span and credit.
    const first = screen.getByRole('article', { name: 'Part 1: Fire drill' });
    // The badge and the figure's label.
    expect(within(first).getAllByText('Completed')).toHaveLength(2);
    expect(within(first).getByText('1 refused report')).toBeTruthy();
    const refusal = within(first).getAllByRole('row')[1]!;
    expect(refusal.textContent).toContain("Ahead of the server's clock");
    expect(refusal.textContent).toContain('0 s to 20 s');
    expect(refusal.textContent).toContain('2 s of 20 s');
    expect(refusal.textContent).toContain(formatMoment('2026-11-26T08:00:00.000Z'));

    // Part 2: not completed, nothing refused, seconds to the tenth with the player's reading.
    const second = screen.getByRole('article', { name: 'Part 2: Breathing apparatus' });
    expect(within(second).getAllByText('Not completed')).toHaveLength(2);
    expect(within(second).getByText('No report was refused.')).toBeTruthy();
    expect(within(second).getByText('124.6 s (2:04)')).toBeTruthy();
    expect(within(second).getByText('126.2 s (2:06)')).toBeTruthy();

    // Attempt 1: failed, its wrong answer marked in words beside the right one.
    const attempt = screen.getByRole('article', { name: 'Attempt 1' });
    expect(within(attempt).getByText('Failed')).toBeTruthy();
    expect(within(attempt).getByText('1 / 2')).toBeTruthy();
    expect(within(attempt).getByText('50%')).toBeTruthy();
    expect(within(attempt).getByText('1 min 35 s')).toBeTruthy();
    const [wrong, right] = within(attempt).getAllByRole('listitem').filter((item) => item.parentElement?.tagName === 'OL');
    expect(within(wrong!).getByText('Wrong')).toBeTruthy();
    const options = within(wrong!).getByRole('list', { name: /Options of question 1/ });
    // The options in the order the learner saw them.
    expect(within(options).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'A.Foam',
      'B.WaterLearner’s answer',
      'C.CO2Right answer',
      'D.Wet sand',
    ]);
    expect(within(right!).getByText('Right')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Attempt 2' })).getByText('Passed')).toBeTruthy();
  });

  it('says when and why a certificate was revoked', async () => {
    server.evidence = evidence({ revokedAt: '2026-11-27T10:00:00.000Z', revokeReason: 'Watched by someone else.' });
    openEvidence();
    const summary = await screen.findByRole('region', { name: 'MTA/2026/000042' });
    expect(within(summary).getAllByText('Revoked')).toHaveLength(2);
    expect(screen.getByText(formatMoment('2026-11-27T10:00:00.000Z'))).toBeTruthy();
    expect(screen.getByText('Watched by someone else.')).toBeTruthy();
  });

  it('says a certificate it cannot find was not found, and offers the way to the results', async () => {
    openEvidence('0b7e2c36-6c1a-4a4e-9d43-000000000009');
    expect(await screen.findByText(E.notFound)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Test Results' }).getAttribute('href')).toBe('/admin-dashboard/user-results');
    expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
  });

  it('takes a registrar, who does not see the results, back to the certificates', async () => {
    openEvidence(CERTIFICATE_ID, 'registrar');
    expect(await screen.findByRole('heading', { name: 'MTA/2026/000042' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Certificates' }).getAttribute('href')).toBe('/admin-dashboard/certificates');
  });

  it('says the evidence failed to load when the server cannot be reached, and loads it on Try again', async () => {
    server.failure = networkError();
    const user = openEvidence();
    expect(await screen.findByText(E.loadFailed)).toBeTruthy();
    server.failure = null;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'MTA/2026/000042' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toBeTruthy();
  });
});

describe('the evidence export', () => {
  const openExport = () =>
    renderWithServer(
      <>
        <EvidenceExportPage />
        <Toaster />
      </>,
      { url: '/admin-dashboard/certificate-evidence', pattern: '/admin-dashboard/certificate-evidence', answer },
    ).user;

  it('checks the course and the range before asking, then downloads the file with the course and days', async () => {
    const fetch = vi.fn(async () => new Response('Certificate\r\n', { headers: { 'content-disposition': 'attachment; filename="certificate-evidence-2026-11-01-to-2026-11-30.csv"' } }));
    vi.stubGlobal('fetch', fetch);
    URL.createObjectURL = () => 'blob:evidence';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = openExport();

    // The last 30 days are chosen to begin with.
    const from = screen.getByLabelText('Issued from') as HTMLInputElement;
    const to = screen.getByLabelText('Issued to') as HTMLInputElement;
    expect(Math.round((Date.parse(to.value) - Date.parse(from.value)) / 86_400_000)).toBe(29);

    await screen.findByRole('option', { name: 'Advanced Fire Fighting (inactive)' });
    await user.clear(to);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.getByText(MESSAGES.tests.courseRequired)).toBeTruthy();
    expect(screen.getByText(E.dateFormat)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Course'));

    await user.selectOptions(screen.getByLabelText('Course'), 'Fire Prevention and Fire Fighting');
    await user.clear(from);
    await user.type(from, '2026-11-30');
    await user.type(to, '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.getByText(E.rangeOrder)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();

    await user.clear(from);
    await user.type(from, '2026-11-01');
    await user.clear(to);
    await user.type(to, '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(E.exported)).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith(`/api/certificates/evidence.csv?courseId=${COURSE_ID}&from=2026-11-01&to=2026-11-30`, expect.anything());
    expect(click).toHaveBeenCalledOnce();
  });

  it('says the export failed when the server refuses it', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'Too many requests.' }), { status: 429 })));
    const user = openExport();
    await screen.findByRole('option', { name: 'Fire Prevention and Fire Fighting' });
    await user.selectOptions(screen.getByLabelText('Course'), 'Fire Prevention and Fire Fighting');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(E.exportFailed)).toBeTruthy();
    expect(screen.getByText('Too many requests.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export CSV' }).hasAttribute('disabled')).toBe(false));
  });
});

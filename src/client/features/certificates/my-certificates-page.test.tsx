import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TLearnerCertificate } from '../../../shared/schemas/certificate.ts';
import { CERTIFICATE_POLL_MS } from '@/features/certificates/certificate-report-page.tsx';
import { MyCertificatesPage } from '@/features/certificates/my-certificates-page.tsx';
import { currentLocation, networkError, renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const C = MESSAGES.certificate;
const M = MESSAGES.certificateAdmin;

function certificate(id: string, title: string, number: string, extra: Partial<TLearnerCertificate> = {}): TLearnerCertificate {
  return {
    id,
    number,
    version: 1,
    course: { id: `course-${id}`, title, code: null },
    issuedAt: '2022-03-10T09:03:05.000Z',
    validUntil: null,
    state: 'valid',
    status: 'ready',
    revoked: false,
    revokeReason: null,
    supersededBy: null,
    renews: null,
    refresher: null,
    pdfUrl: `/certificates/${id}-5f1c2d3e4a5b6c7d8e9f.pdf`,
    verificationCode: `Kq3vX9_wTz-${id}bN7pLm2rYc4sHd`,
    ...extra,
  };
}

const REFRESHER = { courseId: 'course-refresher', title: 'FPFF Refresher', enrolled: false };

/** A learner with one certificate in each state the server can give. */
const certificates = () => [
  certificate('a', 'Elementary First Aid', 'MTA/2026/000101'),
  certificate('b', 'Fire Prevention and Fire Fighting', 'MTA/2022/000102', {
    course: { id: 'course-b', title: 'Fire Prevention and Fire Fighting', code: 'FPFF' },
    state: 'expiring',
    validUntil: '2027-01-15',
    version: 2,
    refresher: REFRESHER,
  }),
  certificate('c', 'Personal Survival Techniques', 'MTA/2021/000103', {
    state: 'expired',
    validUntil: '2026-06-30',
    refresher: { courseId: 'course-pst-refresher', title: 'PST Refresher', enrolled: true },
  }),
  certificate('d', 'Security Awareness', 'MTA/2025/000104', { state: 'revoked', revoked: true, revokeReason: 'Issued to the wrong learner', pdfUrl: null }),
  certificate('e', 'Proficiency in Survival Craft', 'MTA/2020/000105', {
    state: 'superseded',
    validUntil: '2025-08-01',
    supersededBy: { number: 'MTA/2025/000130', courseTitle: 'PSCRB Refresher' },
  }),
];

const server = {
  certificates: [] as TLearnerCertificate[],
  remindersOn: true,
  reads: [] as string[],
  failMine: null as Error | null,
  failSave: null as Error | null,
  readyAfter: Infinity,
};

function answer(path: string, input: Record<string, unknown>): unknown {
  server.reads.push(path);
  if (path === 'certificates.mine') {
    if (server.failMine) throw server.failMine;
    if (server.reads.filter((read) => read === path).length >= server.readyAfter) {
      for (const item of server.certificates) Object.assign(item, { status: 'ready', pdfUrl: `/certificates/${item.id}-ready.pdf` });
    }
    return server.certificates;
  }
  if (path === 'certificates.reminderPreference') return { remindersOn: server.remindersOn };
  if (path === 'certificates.setReminderPreference') {
    if (server.failSave) throw server.failSave;
    server.remindersOn = input.remindersOn as boolean;
    return { remindersOn: server.remindersOn };
  }
  throw new Error(`unexpected call ${path}`);
}

const renderPage = () => renderWithServer(<MyCertificatesPage />, { url: '/my-certificates', pattern: '/my-certificates', answer }).user;
const card = (title: string) => screen.getByRole('article', { name: title });

beforeEach(() => {
  server.certificates = certificates();
  server.remindersOn = true;
  server.reads = [];
  server.failMine = null;
  server.failSave = null;
  server.readyAfter = Infinity;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('My certificates', { timeout: 20_000 }, () => {
  it("shows each certificate with the server's state, its dates and what can be done with it", async () => {
    renderPage();
    await screen.findByRole('article', { name: 'Elementary First Aid' });
    expect(screen.getByRole('heading', { level: 1, name: 'My certificates' })).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(5);

    const valid = card('Elementary First Aid');
    expect(within(valid).getByText('Valid')).toBeTruthy();
    expect(within(valid).getByText('MTA/2026/000101')).toBeTruthy();
    expect(within(valid).getByText('Does not expire')).toBeTruthy();
    expect(within(valid).queryByText(/^version/)).toBeNull();
    const download = within(valid).getByRole('link', { name: /Download PDF/ });
    expect(download.getAttribute('href')).toBe('/certificates/a-5f1c2d3e4a5b6c7d8e9f.pdf');
    expect(download.getAttribute('target')).toBe('_blank');
    expect(within(valid).queryByRole('link', { name: /Enrol in refresher/ })).toBeNull();

    const expiring = card('Fire Prevention and Fire Fighting');
    expect(within(expiring).getByText('Expiring')).toBeTruthy();
    expect(within(expiring).getByText('FPFF')).toBeTruthy();
    expect(within(expiring).getByText('version 2')).toBeTruthy();
    expect(within(expiring).getByText('15 Jan 2027')).toBeTruthy();
    expect(within(expiring).getByText(/Expires on 15 Jan 2027\./)).toBeTruthy();
    // The refresher's enrolment goes through the catalogue, which sends the request on arrival.
    expect(within(expiring).getByRole('link', { name: 'Enrol in refresher: FPFF Refresher' }).getAttribute('href')).toBe('/courses');

    const expired = card('Personal Survival Techniques');
    expect(within(expired).getByText('Expired')).toBeTruthy();
    expect(within(expired).getByText('30 Jun 2026')).toBeTruthy();
    expect(within(expired).getByText('Refresher requested: PST Refresher')).toBeTruthy();
    expect(within(expired).queryByRole('link', { name: /Enrol in refresher/ })).toBeNull();

    const revoked = card('Security Awareness');
    expect(within(revoked).getByText('Revoked')).toBeTruthy();
    expect(within(revoked).getByText(`${C.revoked} Reason: Issued to the wrong learner`)).toBeTruthy();
    expect(within(revoked).queryByRole('link', { name: /Download PDF/ })).toBeNull();
    expect(within(revoked).queryByRole('button', { name: 'Copy verification link' })).toBeNull();

    const superseded = card('Proficiency in Survival Craft');
    expect(within(superseded).getByText('Superseded')).toBeTruthy();
    expect(within(superseded).getByText('MTA/2025/000130')).toBeTruthy();
    // No refresher to offer: it was already renewed.
    expect(within(superseded).queryByRole('link', { name: /Enrol in refresher/ })).toBeNull();
  });

  it('copies the verification link with its code, on the site\'s origin', async () => {
    const user = renderPage();
    const valid = await screen.findByRole('article', { name: 'Elementary First Aid' });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(valid).getByRole('button', { name: 'Copy verification link' }));
    const link = '/verify/MTA/2026/000101?code=Kq3vX9_wTz-abN7pLm2rYc4sHd';
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}${link}`);
    expect(await within(valid).findByText('Link copied')).toBeTruthy();
    expect(within(valid).getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe(link);

    writeText.mockImplementationOnce(() => Promise.reject(new Error('denied')));
    await user.click(within(card('Fire Prevention and Fire Fighting')).getByRole('button', { name: 'Copy verification link' }));
    expect(await screen.findByText('Could not copy the link')).toBeTruthy();
  });

  it('follows Enrol in refresher to the catalogue', async () => {
    const user = renderPage();
    const expiring = await screen.findByRole('article', { name: 'Fire Prevention and Fire Fighting' });
    await user.click(within(expiring).getByRole('link', { name: /Enrol in refresher/ }));
    await screen.findByText('Elsewhere');
    expect(currentLocation.pathname).toBe('/courses');
  });

  it('turns the reminders off and on, says what the server kept, and keeps the switch when saving fails', async () => {
    const user = renderPage();
    const toggle = await screen.findByRole('switch', { name: 'E-mail me before a certificate expires' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await user.click(toggle);
    expect(await screen.findByText(M.remindersOff)).toBeTruthy();
    expect(server.remindersOn).toBe(false);
    expect((toggle as HTMLInputElement).checked).toBe(false);

    server.failSave = serverError(500, 'Something went wrong. Please try again.');
    await user.click(toggle);
    expect(await screen.findByText('Something went wrong. Please try again.')).toBeTruthy();
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    expect(server.remindersOn).toBe(false);

    server.failSave = null;
    await user.click(toggle);
    expect(await screen.findByText(M.remindersOn)).toBeTruthy();
    expect(server.remindersOn).toBe(true);
  });

  it('reads the list again while a PDF is being prepared, then offers the download', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    server.certificates = [certificate('a', 'Elementary First Aid', 'MTA/2026/000101', { status: 'pending', pdfUrl: null })];
    server.readyAfter = 3;
    renderPage();
    await screen.findByText('The PDF is being prepared…');
    const download = await screen.findByRole('link', { name: /Download PDF/ }, { timeout: 3 * CERTIFICATE_POLL_MS + 2_000 });
    expect(download.getAttribute('href')).toBe('/certificates/a-ready.pdf');
    const reads = server.reads.filter((read) => read === 'certificates.mine').length;
    await vi.advanceTimersByTimeAsync(CERTIFICATE_POLL_MS + 300);
    expect(server.reads.filter((read) => read === 'certificates.mine').length).toBe(reads);
  });

  it('points a learner without certificates to their courses, and offers to try again when the list cannot be read', async () => {
    server.certificates = [];
    const first = renderWithServer(<MyCertificatesPage />, { url: '/my-certificates', pattern: '/my-certificates', answer });
    await screen.findByText('You have no certificates yet.');
    expect(screen.getByRole('link', { name: 'Go to Your Courses' }).getAttribute('href')).toBe('/UserCource');
    first.view.unmount();

    server.certificates = certificates();
    server.failMine = networkError();
    const user = renderPage();
    await screen.findByText(C.reportFailed);
    expect(screen.queryByRole('article')).toBeNull();
    server.failMine = null;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('article', { name: 'Elementary First Aid' });
  });
});

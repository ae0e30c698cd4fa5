import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TLearnerCertificate } from '../../../shared/schemas/certificate.ts';
import { CERTIFICATE_POLL_LIMIT_MS, CERTIFICATE_POLL_MS, CertificateReportPage } from '@/features/certificates/certificate-report-page.tsx';
import { currentLocation, networkError, renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const C = MESSAGES.certificate;
const FIRE = { id: '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7', title: 'Fire Prevention and Fire Fighting' };
const SURVIVAL = { id: '7a2e3b9c-4d5e-4f60-8b12-c3d4e5f6a7b8', title: 'Personal Survival Techniques' };

function certificate(course: { id: string; title: string }, number: string, extra: Partial<TLearnerCertificate> = {}): TLearnerCertificate {
  return {
    id: `certificate-${number.slice(-3)}`,
    number,
    version: 1,
    course: { ...course, code: null },
    issuedAt: '2026-11-24T09:03:05.000Z',
    validUntil: null,
    state: 'valid',
    status: 'ready',
    revoked: false,
    revokeReason: null,
    supersededBy: null,
    renews: null,
    refresher: null,
    pdfUrl: `/certificates/${number.slice(-3)}-5f1c2d3e4a5b6c7d8e9f.pdf`,
    verificationCode: `Kq3vX9_wTz-${number.slice(-3)}bN7pLm2rYc4sHd`,
    ...extra,
  };
}

/**
 * certificates.mine and certificates.forCourse over the learner's certificates; `readyAfter` turns
 * a pending PDF ready after that many reads of it, as the worker would finish it.
 */
const server = {
  certificates: [] as TLearnerCertificate[],
  reads: [] as string[],
  readyAfter: Infinity,
  failMine: null as Error | null,
  failForCourse: null as Error | null,
};

function answer(path: string, input: Record<string, unknown>): unknown {
  server.reads.push(path === 'certificates.forCourse' ? `${path}:${String(input.courseId)}` : path);
  if (path === 'certificates.mine') {
    if (server.failMine) throw server.failMine;
    return server.certificates;
  }
  if (path === 'certificates.forCourse') {
    if (server.failForCourse) throw server.failForCourse;
    const found = server.certificates.find((item) => item.course.id === input.courseId);
    if (!found) throw serverError(404, C.notFound);
    const reads = server.reads.filter((read) => read === `certificates.forCourse:${found.course.id}`).length;
    if (found.status === 'pending' && reads >= server.readyAfter) {
      Object.assign(found, { status: 'ready', pdfUrl: '/certificates/123-0f9e8d7c6b5a4f3e2d1c.pdf' });
    }
    return found;
  }
  throw new Error(`unexpected call ${path}`);
}

const renderPage = (url = '/certificate-report') =>
  renderWithServer(<CertificateReportPage />, { url, pattern: '/certificate-report', answer }).user;
const forCourseReads = () => server.reads.filter((read) => read.startsWith('certificates.forCourse')).length;

beforeEach(() => {
  server.certificates = [certificate(FIRE, 'MTA/2026/000123'), certificate(SURVIVAL, 'MTA/2026/000124')];
  server.reads = [];
  server.readyAfter = Infinity;
  server.failMine = null;
  server.failForCourse = null;
  // What Radix's select calls and jsdom lacks.
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
});

afterEach(() => {
  vi.useRealTimers();
});

/** The course the picker shows as chosen. */
const chosenCourse = () => (screen.getByRole('combobox', { name: 'Completed course' }) as HTMLSelectElement).selectedOptions[0]?.textContent;

describe('Certificate Report', { timeout: 20_000 }, () => {
  it('shows the course chosen in the address with its number and date, and View Certificate opens the PDF in a new tab', async () => {
    const user = renderPage(`/certificate-report?courseId=${SURVIVAL.id}`);
    const card = await screen.findByRole('article', { name: SURVIVAL.title });
    expect(within(card).getByText('MTA/2026/000124')).toBeTruthy();
    expect(within(card).getByText('24 Nov 2026')).toBeTruthy();
    const view = within(card).getByRole('link', { name: /View Certificate/ });
    expect(view.getAttribute('href')).toBe('/certificates/124-5f1c2d3e4a5b6c7d8e9f.pdf');
    expect(view.getAttribute('target')).toBe('_blank');
    expect(view.getAttribute('rel')).toBe('noopener');
    // The learner's own verification link carries the certificate's code, as the QR code does.
    const link = `/verify/MTA/2026/000124?code=Kq3vX9_wTz-124bN7pLm2rYc4sHd`;
    expect(within(card).getByRole('link', { name: 'verification link' }).getAttribute('href')).toBe(link);
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(card).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}${link}`);
    expect(await within(card).findByText('Copied')).toBeTruthy();
    expect(chosenCourse()).toBe(SURVIVAL.title);

    // Choosing another course shows its certificate and keeps the choice in the address.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Completed course' }), FIRE.title);
    await screen.findByRole('article', { name: FIRE.title });
    expect(screen.getByText('MTA/2026/000123')).toBeTruthy();
    expect(currentLocation.search).toBe(`?courseId=${FIRE.id}`);
  });

  it("shows the state the server gives and the last valid day, or that it does not expire", async () => {
    server.certificates[1] = certificate(SURVIVAL, 'MTA/2026/000124', { state: 'expiring', validUntil: '2027-03-01' });
    const user = renderPage(`/certificate-report?courseId=${SURVIVAL.id}`);
    const card = await screen.findByRole('article', { name: SURVIVAL.title });
    expect(within(card).getByText('Expiring')).toBeTruthy();
    expect(within(card).getByText('01 Mar 2027')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Completed course' }), FIRE.title);
    const fire = await screen.findByRole('article', { name: FIRE.title });
    expect(within(fire).getByText('Valid')).toBeTruthy();
    expect(within(fire).getByText('Does not expire')).toBeTruthy();
  });

  it('chooses the first certificate when the address names none', async () => {
    renderPage();
    await screen.findByRole('article', { name: FIRE.title });
    expect(server.reads).toContain(`certificates.forCourse:${FIRE.id}`);
  });

  it('says the certificate is being prepared and reads it again until the PDF is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    server.certificates[0] = certificate(FIRE, 'MTA/2026/000123', { status: 'pending', pdfUrl: null });
    server.readyAfter = 3;
    renderPage(`/certificate-report?courseId=${FIRE.id}`);
    await screen.findByText(C.preparing);
    expect(screen.queryByRole('link', { name: /View Certificate/ })).toBeNull();
    const view = await screen.findByRole('link', { name: /View Certificate/ }, { timeout: 3 * CERTIFICATE_POLL_MS + 2_000 });
    expect(view.getAttribute('href')).toBe('/certificates/123-0f9e8d7c6b5a4f3e2d1c.pdf');
    expect(screen.queryByText(C.preparing)).toBeNull();
    expect(screen.getByText('Your certificate is ready. View Certificate opens it.')).toBeTruthy();
    // Ready: no more reads.
    const reads = forCourseReads();
    expect(reads).toBe(3);
    await vi.advanceTimersByTimeAsync(CERTIFICATE_POLL_MS + 300);
    expect(forCourseReads()).toBe(reads);
  });

  it('stops reading after a while and offers to check again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    server.certificates[0] = certificate(FIRE, 'MTA/2026/000123', { status: 'pending', pdfUrl: null });
    const user = renderWithServer(<CertificateReportPage />, {
      url: `/certificate-report?courseId=${FIRE.id}`,
      pattern: '/certificate-report',
      answer,
    }).user;
    await screen.findByText(C.preparing);
    await vi.advanceTimersByTimeAsync(CERTIFICATE_POLL_LIMIT_MS + CERTIFICATE_POLL_MS);
    await screen.findByText('Your certificate is taking longer than usual.');
    const reads = forCourseReads();
    expect(reads).toBeGreaterThan(CERTIFICATE_POLL_LIMIT_MS / CERTIFICATE_POLL_MS - 5);
    await vi.advanceTimersByTimeAsync(5 * CERTIFICATE_POLL_MS);
    expect(forCourseReads()).toBe(reads);

    server.readyAfter = 0;
    vi.useRealTimers();
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await screen.findByRole('link', { name: /View Certificate/ });
  });

  it('says a revoked certificate is revoked, with nothing to open', async () => {
    server.certificates[0] = certificate(FIRE, 'MTA/2026/000123', { revoked: true, state: 'revoked', revokeReason: 'Issued in error' });
    renderPage(`/certificate-report?courseId=${FIRE.id}`);
    const card = await screen.findByRole('article', { name: FIRE.title });
    expect(within(card).getByText(C.revoked)).toBeTruthy();
    expect(within(card).getByText('Revoked')).toBeTruthy();
    expect(within(card).queryByRole('link', { name: /View Certificate/ })).toBeNull();
  });

  it('points a learner without certificates to their courses', async () => {
    server.certificates = [];
    renderPage();
    await screen.findByText('You have no certificates yet.');
    expect(screen.getByRole('link', { name: 'Go to Your Courses' }).getAttribute('href')).toBe('/UserCource');
    expect(forCourseReads()).toBe(0);
  });

  it("says 'Certificate not found.' for a course without one, 'Failed to load certificate.' when it cannot be read and 'Failed to fetch certificate.' when the list cannot", async () => {
    const first = renderWithServer(<CertificateReportPage />, {
      url: '/certificate-report?courseId=8b3f4c0d-5e6f-4071-9c23-d4e5f6a7b8c9',
      pattern: '/certificate-report',
      answer,
    });
    await screen.findByText(C.notFound);
    expect(chosenCourse()).toBe('Choose a course');
    first.view.unmount();

    server.failForCourse = networkError();
    const second = renderWithServer(<CertificateReportPage />, { url: `/certificate-report?courseId=${FIRE.id}`, pattern: '/certificate-report', answer });
    await screen.findByText(C.loadFailed);
    server.failForCourse = null;
    await second.user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('link', { name: /View Certificate/ });
    second.view.unmount();

    server.failMine = serverError(500, '');
    renderPage();
    await screen.findByText(C.reportFailed);
    await waitFor(() => expect(screen.queryByRole('combobox')).toBeNull());
  });
});

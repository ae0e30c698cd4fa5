import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminFigures } from '../../../shared/schemas/overview.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { AdminOverviewPage } from '@/features/admin-overview/admin-overview-page.tsx';
import { trpc } from '@/lib/trpc.ts';
import { fakeTrpcLink, knowStaffRole, serverError, staffMember } from '@/testing/fake-trpc.tsx';

const server = { figures: null as TAdminFigures | null, fail: false, calls: 0, staffRole: 'owner' as TStaffRole };

const fakeServer = fakeTrpcLink((path) => {
  // The owner unless a test says otherwise: every group of the menu.
  if (path === 'auth.me') return staffMember(server.staffRole);
  server.calls += 1;
  if (path !== 'overview.figures') throw TRPCClientError.from(new Error(`unexpected ${path}`));
  if (server.fail) throw serverError(500, 'Internal error');
  return server.figures;
});

function renderPage(staffRole?: TStaffRole) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  server.staffRole = staffRole ?? 'owner';
  if (staffRole) knowStaffRole(queryClient, staffRole);
  render(
    <trpc.Provider client={trpc.createClient({ links: [fakeServer] })} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/admin-dashboard']}>
          <AdminOverviewPage />
        </MemoryRouter>
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  server.fail = false;
  server.calls = 0;
  server.figures = {
    pendingUsers: 4,
    pendingEnrolments: 7,
    activeCourses: 12,
    publishedTests: 5,
    attemptsThisMonth: 38,
    monthStartedAt: '2026-10-31T18:30:00.000Z',
    passRates: [
      { courseId: 'c1', courseTitle: 'Advanced Fire Fighting', attempts: 10, passed: 4, passRate: 40 },
      { courseId: 'c2', courseTitle: 'Bridge Resource Management', attempts: 4, passed: 3, passRate: 75 },
    ],
  };
});

describe('the admin landing page', () => {
  it('shows each figure as a link to the screen that deals with it', async () => {
    renderPage();
    const pending = await screen.findByRole('link', { name: /Pending users\s*4/ }, { timeout: 5000 });
    expect(pending.getAttribute('href')).toBe('/admin-dashboard/unapproved-users');
    expect(screen.getByRole('link', { name: /Pending enrolment requests\s*7/ }).getAttribute('href')).toBe('/admin-dashboard/enrollment-request');
    expect(screen.getByRole('link', { name: /Active courses\s*12/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Published tests\s*5/ }).getAttribute('href')).toBe('/admin-dashboard/Published-tests');
    expect(screen.getByRole('link', { name: /Test attempts this month\s*38/ }).getAttribute('href')).toBe('/admin-dashboard/user-results');
    expect(server.calls).toBe(1);
  });

  it('shows an instructor every figure, linking only those whose screen the role may open', async () => {
    renderPage('instructor');
    const courses = await screen.findByRole('link', { name: /Active courses\s*12/ }, { timeout: 5000 });
    expect(courses.getAttribute('href')).toBe('/admin-dashboard/courses');
    expect(screen.getByRole('link', { name: /Test attempts this month\s*38/ })).toBeTruthy();
    // Accounts and enrolment requests are the registrar's: their figures are shown, not linked.
    expect(screen.getByText('Pending users').closest('a')).toBeNull();
    expect(screen.getByText('Pending enrolment requests').closest('a')).toBeNull();
    expect(screen.getByText('7')).toBeTruthy();
  });

  it('draws the pass rates for the eye and reads them to screen readers as a table, which anyone can show', async () => {
    const user = renderPage();
    const chart = await screen.findByRole('figure', { name: 'Pass rate per course' }, { timeout: 5000 });
    // The bars are hidden from assistive technology; the table says the same.
    const table = within(chart).getByRole('table', { name: 'Pass rate per course' });
    const rows = within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Course', 'Attempts', 'Passed', 'Pass rate'],
      ['Advanced Fire Fighting', '10', '4', '40%'],
      ['Bridge Resource Management', '4', '3', '75%'],
    ]);
    const bars = chart.querySelectorAll('svg rect');
    // A track and a bar per course, each bar as wide as its rate out of 100.
    expect([...bars].map((bar) => bar.getAttribute('width'))).toEqual(['100', '40', '100', '75']);
    expect(chart.querySelector('svg')!.closest('[aria-hidden]')).not.toBeNull();

    const toggle = within(chart).getByRole('button', { name: 'Show as table' });
    expect(table.parentElement!.className).toContain('sr-only');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(table.parentElement!.className).not.toContain('sr-only');
    expect(chart.querySelector('svg')).toBeNull();
  });

  it('says when no test was submitted yet', async () => {
    server.figures = { ...server.figures!, passRates: [] };
    renderPage();
    expect(await screen.findByText('No test submitted yet.')).toBeTruthy();
  });

  it('offers to try again when the figures cannot be loaded', async () => {
    server.fail = true;
    const user = renderPage();
    expect(await screen.findByText(MESSAGES.overview.figuresFailed)).toBeTruthy();
    server.fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: /Pending users\s*4/ })).toBeTruthy();
  });
});

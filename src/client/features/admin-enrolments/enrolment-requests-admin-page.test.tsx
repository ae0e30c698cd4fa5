import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TEnrolmentStatus } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TEnrolmentRequestItem } from '../../../shared/schemas/enrolment.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { EnrolmentRequestsAdminPage } from '@/features/admin-enrolments/enrolment-requests-admin-page.tsx';
import { trpc } from '@/lib/trpc.ts';
import { fakeTrpcLink, knowStaffRole, staffMember } from '@/testing/fake-trpc.tsx';

const E = MESSAGES.enrolment;

function request(id: string, status: TEnrolmentStatus, learner: string, course: string): TEnrolmentRequestItem {
  return {
    id,
    status,
    requestedAt: '2026-11-20T09:00:00.000Z',
    decidedAt: status === 'pending' ? null : '2026-11-21T09:00:00.000Z',
    user: { id: `user-${id}`, name: learner, email: `${learner.split(' ')[0]!.toLowerCase()}@example.com` },
    course: {
      id: `course-${id}`,
      title: course,
      description: 'Shipboard training.',
      duration: '3 days',
      price: 12500,
      category: 'STCW',
      isActive: true,
    },
  };
}

/**
 * The server's enrolment procedures over a list of requests, as the real ones behave: search by
 * state, accept from pending or rejected, reject from pending or approved, 409 when nothing would
 * change. `refuseNext` makes the next decision fail as if another administrator had got there first.
 */
const server = {
  staffRole: 'owner' as TStaffRole,
  requests: [] as TEnrolmentRequestItem[],
  decisions: [] as Array<{ path: string; enrolmentId: string }>,
  refuseNext: false,
};

function conflict(message: string) {
  return TRPCClientError.from({ error: { message, code: -32009, data: { code: 'CONFLICT', httpStatus: 409 } } });
}

function answer(path: string, input: Record<string, unknown>) {
  // The signed-in member: the screen offers what their role may do.
  if (path === 'auth.me') return staffMember(server.staffRole);
  if (path === 'enrolments.search') {
    const matching = server.requests.filter((item) => item.status === input.status);
    const page = Number(input.page);
    const pageSize = Number(input.pageSize);
    return { items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize };
  }
  const enrolmentId = String(input.enrolmentId);
  server.decisions.push({ path, enrolmentId });
  const item = server.requests.find((candidate) => candidate.id === enrolmentId)!;
  const accepting = path === 'enrolments.accept';
  if (server.refuseNext) {
    server.refuseNext = false;
    throw conflict(accepting ? E.alreadyAccepted : E.alreadyRejected);
  }
  item.status = accepting ? 'approved' : 'rejected';
  item.decidedAt = '2026-11-23T09:00:00.000Z';
  return { message: accepting ? E.accepted : E.rejected, request: item };
}

const fakeServer = fakeTrpcLink(answer);

function renderPage(at = '/admin-dashboard/enrollment-request', staffRole?: TStaffRole) {
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
          <EnrolmentRequestsAdminPage />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return userEvent.setup();
}

const card = (course: string) => screen.getByRole('article', { name: course });
const findCard = (course: string) => screen.findByRole('article', { name: course });
const buttonsOf = (article: HTMLElement) => within(article).getAllByRole('button').map((button) => button.textContent);

beforeEach(() => {
  server.staffRole = 'owner';
  server.requests = [
    request('1', 'pending', 'Kavya Menon', 'Bridge Resource Management'),
    request('2', 'pending', 'Rohan Pillai', 'Basic Safety Training'),
    request('3', 'approved', 'Meera Iyer', 'Food Handling'),
    request('4', 'rejected', 'Vikram Rao', 'Helicopter Landing Assistance'),
  ];
  server.decisions = [];
  server.refuseNext = false;
});

// Sonner keeps its toasts in one store for the whole page, beyond each test's render.
afterEach(() => {
  toast.dismiss();
});

describe('Enrollment Requests: the row actions', () => {
  it('lists the pending requests first, each with its state, and counts every state in its tab', async () => {
    renderPage();
    const pending = await findCard('Bridge Resource Management');
    expect(within(pending).getByText('Pending approval')).toBeTruthy();
    expect(pending.textContent).toContain('Kavya Menon');
    expect(pending.textContent).toContain('kavya@example.com');
    expect(buttonsOf(pending)).toEqual(['Reject', 'Accept']);
    expect(screen.queryByRole('article', { name: 'Food Handling' })).toBeNull();

    expect(screen.getByRole('tab', { name: 'Pending 2 requests', selected: true })).toBeTruthy();
    await screen.findByRole('tab', { name: 'Approved 1 request' });
    expect(screen.getByRole('tab', { name: 'Rejected 1 request' })).toBeTruthy();
  });

  it('offers Reject on an approved request and Accept on a rejected one, each tab saying which state it lists', async () => {
    const user = renderPage();
    await findCard('Bridge Resource Management');

    await user.click(screen.getByRole('tab', { name: /^Approved/ }));
    const approved = await findCard('Food Handling');
    expect(within(approved).getByText('Approved', { selector: '[data-slot="badge"]' })).toBeTruthy();
    expect(buttonsOf(approved)).toEqual(['Reject']);
    expect(screen.getByText('1 approved request')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: /^Rejected/ }));
    const rejected = await findCard('Helicopter Landing Assistance');
    expect(within(rejected).getByText('Rejected', { selector: '[data-slot="badge"]' })).toBeTruthy();
    expect(buttonsOf(rejected)).toEqual(['Accept']);
    expect(screen.queryByRole('article', { name: 'Food Handling' })).toBeNull();
  });

  it('accepts a pending request from the keyboard after the confirm dialog, then refreshes the list and the counts', async () => {
    const user = renderPage();
    await findCard('Bridge Resource Management');

    screen.getByRole('button', { name: "Accept Kavya Menon's request for Bridge Resource Management" }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Accept request' });
    expect(dialog.textContent).toContain('Are you sure you want to accept this request?');
    expect(dialog.textContent).toContain('Bridge Resource Management');
    expect(server.decisions).toEqual([]);

    // Cancel has the focus first (nothing is decided by a stray Enter); the confirm button is next.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Yes, Accept' }));
    await user.keyboard('{Enter}');

    await screen.findByText(E.accepted);
    expect(server.decisions).toEqual([{ path: 'enrolments.accept', enrolmentId: '1' }]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Bridge Resource Management' })).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await screen.findByRole('tab', { name: 'Pending 1 request' });
    await screen.findByRole('tab', { name: 'Approved 2 requests' });
    // The button that opened the dialog has gone with its card: focus waits on the tab above the list.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: /^Pending/ })));

    // The accepted request is now among the approved ones, where it can be taken back.
    await user.click(screen.getByRole('tab', { name: /^Approved/ }));
    expect(buttonsOf(await findCard('Bridge Resource Management'))).toEqual(['Reject']);
  });

  it('rejects an approved request, warning that the learner loses the course, and it moves to the rejected ones', async () => {
    const user = renderPage('/admin-dashboard/enrollment-request?status=approved');
    await findCard('Food Handling');

    await user.click(screen.getByRole('button', { name: "Reject Meera Iyer's request for Food Handling" }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reject request' });
    expect(dialog.textContent).toContain('The learner loses access to the course');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Reject' }));

    await screen.findByText(E.rejected);
    expect(server.decisions).toEqual([{ path: 'enrolments.reject', enrolmentId: '3' }]);
    await screen.findByText(E.noMatches);

    await user.click(screen.getByRole('tab', { name: /^Rejected/ }));
    expect(buttonsOf(await findCard('Food Handling'))).toEqual(['Accept']);
  });

  it('accepts a rejected request again', async () => {
    const user = renderPage('/admin-dashboard/enrollment-request?status=rejected');
    await user.click(await screen.findByRole('button', { name: "Accept Vikram Rao's request for Helicopter Landing Assistance" }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Accept request' });
    expect(dialog.textContent).toContain('It was rejected before');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, Accept' }));

    await screen.findByText(E.accepted);
    expect(server.decisions).toEqual([{ path: 'enrolments.accept', enrolmentId: '4' }]);
    await screen.findByRole('tab', { name: 'Approved 2 requests' });
  });

  it('closes the dialog on Escape or Cancel without deciding anything', async () => {
    const user = renderPage();
    await findCard('Basic Safety Training');
    const reject = screen.getByRole('button', { name: "Reject Rohan Pillai's request for Basic Safety Training" });

    await user.click(reject);
    await screen.findByRole('alertdialog', { name: 'Reject request' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(reject));

    await user.click(reject);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.decisions).toEqual([]);
    expect(card('Basic Safety Training')).toBeTruthy();
  });

  it("says so when the server refuses, with its reason, and shows the request's state afresh", async () => {
    const user = renderPage();
    await findCard('Bridge Resource Management');
    server.refuseNext = true;

    await user.click(screen.getByRole('button', { name: "Reject Kavya Menon's request for Bridge Resource Management" }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, Reject' }));

    await screen.findByText(E.rejectFailed);
    expect(screen.getByText(E.alreadyRejected)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(card('Bridge Resource Management')).toBeTruthy();
  });

  it('shows an auditor every request and its state, with no Accept or Reject', async () => {
    const user = renderPage(undefined, 'auditor');
    const pending = await findCard('Bridge Resource Management');
    expect(pending.textContent).toContain('Kavya Menon');
    expect(within(pending).queryAllByRole('button')).toEqual([]);
    await user.click(screen.getByRole('tab', { name: /^Approved/ }));
    expect(within(await findCard('Food Handling')).queryAllByRole('button')).toEqual([]);
    await user.click(screen.getByRole('tab', { name: /^Rejected/ }));
    expect(within(await findCard('Helicopter Landing Assistance')).queryAllByRole('button')).toEqual([]);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminCertificateRow, TCertificateReminder } from '../../../shared/schemas/certificate.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { CertificatesPage } from '@/features/admin-certificates/certificates-page.tsx';
import {currentLocation, networkError, renderWithServer, serverError, staffMember } from '@/testing/fake-trpc.tsx';

const CA = MESSAGES.certificateAdmin;
const COURSE_ID = '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';
const PATTERN = '/admin-dashboard/certificates';

function row(serial: number, extra: Partial<TAdminCertificateRow> = {}): TAdminCertificateRow {
  const number = `MTA/2026/${String(serial).padStart(6, '0')}`;
  return {
    id: `0b7e2c36-6c1a-4a4e-9d43-${String(serial).padStart(12, '0')}`,
    number,
    version: 1,
    state: 'valid',
    status: 'ready',
    pdfUrl: `/certificates/${serial}.pdf`,
    holder: { userId: `9c1d2a8b-3c4d-4e5f-9a01-${String(serial).padStart(12, '0')}`, name: `Learner ${serial}`, email: `learner${serial}@example.com`, indosNo: `IND${serial}` },
    course: { id: COURSE_ID, title: 'Fire Prevention and Fire Fighting', code: 'FPFF' },
    issuedAt: '2026-11-20T08:00:00.000Z',
    validUntil: '2031-11-19',
    revokedAt: null,
    revokeReason: null,
    supersededBy: null,
    lastReminder: null,
    ...extra,
  };
}

const server = {
  staffRole: 'owner' as TStaffRole,
  /** auth.me is answered once this settles (the role still loading until then). */
  roleGate: Promise.resolve(),
  rows: [] as TAdminCertificateRow[],
  reminders: [] as TCertificateReminder[],
  failList: null as Error | null,
  reissueRefusal: null as Error | null,
  queued: 0,
  calls: [] as { path: string; input: Record<string, unknown> }[],
};
const callsTo = (path: string) => server.calls.filter((call) => call.path === path);

function answer(path: string, input: Record<string, unknown>): unknown {
  // The signed-in member: the screen offers what their role may do.
  if (path === 'auth.me') return server.roleGate.then(() => staffMember(server.staffRole));
  server.calls.push({ path, input });
  switch (path) {
    case 'certificates.adminList': {
      if (server.failList) throw server.failList;
      const search = typeof input.search === 'string' ? input.search.toLowerCase() : '';
      const items = server.rows.filter(
        (item) => (!search || item.holder.name.toLowerCase().includes(search) || item.number.toLowerCase().includes(search)) && (!input.state || item.state === input.state),
      );
      return { items, total: items.length, page: 1, pageSize: 20 };
    }
    case 'courses.adminList':
      return [{ id: COURSE_ID, title: 'Fire Prevention and Fire Fighting', isActive: true }];
    case 'certificates.revoke': {
      const target = server.rows.find((item) => item.id === input.certificateId)!;
      Object.assign(target, { state: 'revoked', revokedAt: '2026-11-27T00:00:00.000Z', revokeReason: input.reason });
      return { id: target.id, number: target.number, status: target.status, revokedAt: target.revokedAt, pdfUrl: target.pdfUrl };
    }
    case 'certificates.reissue': {
      if (server.reissueRefusal) throw server.reissueRefusal;
      const target = server.rows.find((item) => item.id === input.certificateId)!;
      target.version += 1;
      return { message: CA.reissued(target.version), certificate: target };
    }
    case 'certificates.reminders':
      return server.reminders;
    case 'certificates.runRemindersNow':
      return { examined: 3, queued: server.queued, daysBefore: [90, 30, 7] };
    case 'overview.figures':
      return {};
    default:
      throw new Error(`unexpected call ${path}`);
  }
}

const open = (url = PATTERN, staffRole?: TStaffRole) =>
  renderWithServer(
    <>
      <CertificatesPage />
      <Toaster />
    </>,
    { url, pattern: PATTERN, answer, ...(staffRole ? { staffRole } : {}) },
  ).user;

/** The table's row of a certificate (the cards show the same for narrow screens). */
const tableRow = (number: string) => within(screen.getByRole('table')).getByRole('row', { name: new RegExp(number.replaceAll('/', '\\/')) });

beforeEach(() => {
  server.staffRole = 'owner';
  server.roleGate = Promise.resolve();
  server.rows = [row(1), row(2, { state: 'expiring', validUntil: '2026-12-20', lastReminder: { daysBefore: 30, at: '2026-11-20T06:00:00.000Z' } })];
  server.reminders = [];
  server.failList = null;
  server.reissueRefusal = null;
  server.queued = 0;
  server.calls = [];
});

afterEach(() => {
  toast.dismiss();
  vi.unstubAllGlobals();
});

describe('Certificates', { timeout: 20_000 }, () => {
  it('lists each certificate with its holder, course, dates, the state the server gave and its last reminder', async () => {
    open();
    const first = await waitFor(() => tableRow('MTA/2026/000001'));
    expect(first.textContent).toContain('Learner 1');
    expect(first.textContent).toContain('learner1@example.com');
    expect(first.textContent).toContain('INDoS IND1');
    expect(first.textContent).toContain('FPFF');
    expect(first.textContent).toContain('v1');
    expect(first.textContent).toContain('19 Nov 2031');
    expect(within(first).getByText('Valid')).toBeTruthy();
    expect(within(first).getByText('None')).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'View PDF of certificate MTA/2026/000001' }).getAttribute('href')).toBe('/certificates/1.pdf');
    expect(within(first).getByRole('link', { name: 'Profile of Learner 1' }).getAttribute('href')).toBe(`/admin-dashboard/user-profiles/${server.rows[0]!.holder.userId}`);
    const second = tableRow('MTA/2026/000002');
    expect(within(second).getByText('Expiring')).toBeTruthy();
    expect(second.textContent).toContain('30 days before');
    expect(screen.getByText('2 certificates')).toBeTruthy();
  });

  it('keeps the search and filters in the address and asks the server with them', async () => {
    const user = open(`${PATTERN}?state=expiring&within=30`);
    await waitFor(() => tableRow('MTA/2026/000002'));
    expect(callsTo('certificates.adminList').at(-1)!.input).toMatchObject({ state: 'expiring', expiringWithinDays: 30, page: 1 });
    expect((screen.getByLabelText('State') as HTMLSelectElement).value).toBe('expiring');
    expect((screen.getByLabelText('Expiring within (days)') as HTMLInputElement).value).toBe('30');

    await user.selectOptions(screen.getByLabelText('State'), '');
    await user.type(screen.getByRole('searchbox'), 'learner 1');
    await waitFor(() => expect(currentLocation.search).toBe('?within=30&q=learner+1'));
    await waitFor(() => expect(screen.queryByRole('row', { name: /MTA\/2026\/000002/ })).toBeNull());
    expect(callsTo('certificates.adminList').at(-1)!.input).toEqual({ search: 'learner 1', expiringWithinDays: 30, page: 1 });

    // Days that are not a number of days are said under the box, and not asked for.
    const asked = callsTo('certificates.adminList').length;
    await user.clear(screen.getByLabelText('Expiring within (days)'));
    await user.type(screen.getByLabelText('Expiring within (days)'), '0');
    expect(await screen.findByText(CA.expiringWithin)).toBeTruthy();
    expect(callsTo('certificates.adminList').slice(asked).every((call) => call.input.expiringWithinDays === 30)).toBe(true);
  });

  it('says when no certificate matches, and offers no CSV of nothing', async () => {
    open(`${PATTERN}?q=nobody`);
    expect(await screen.findByText('No certificates match.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' }).hasAttribute('disabled')).toBe(true);
  });

  it('says the list failed to load, and loads it on Try again', async () => {
    server.failList = networkError();
    const user = open();
    expect(await screen.findByText(CA.loadFailed)).toBeTruthy();
    server.failList = null;
  server.reissueRefusal = null;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => tableRow('MTA/2026/000001'));
  });

  it('revokes only with a reason, and shows the row as the server now has it', async () => {
    const user = open();
    await user.click(within(await waitFor(() => tableRow('MTA/2026/000001'))).getByRole('button', { name: 'Revoke certificate MTA/2026/000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke certificate' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText(CA.reasonRequired)).toBeTruthy();
    expect(callsTo('certificates.revoke')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Reason'), 'Identity document forged');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo('certificates.revoke').map((call) => call.input)).toEqual([{ certificateId: server.rows[0]!.id, reason: 'Identity document forged' }]);
    await waitFor(() => expect(within(tableRow('MTA/2026/000001')).getByText('Revoked')).toBeTruthy());
    expect(tableRow('MTA/2026/000001').textContent).toContain('Reason: Identity document forged');
    expect(within(tableRow('MTA/2026/000001')).queryByRole('button', { name: /Revoke|Re-issue/ })).toBeNull();
  });

  it('re-issues after a confirm dialog that says what re-issue does, and says the server’s answer', async () => {
    const user = open();
    await user.click(within(await waitFor(() => tableRow('MTA/2026/000001'))).getByRole('button', { name: 'Re-issue certificate MTA/2026/000001' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Re-issue certificate' });
    expect(dialog.textContent).toContain('same number');
    expect(dialog.textContent).toContain('version 2');
    expect(dialog.textContent).toContain('The old version will answer superseded');
    await user.click(within(dialog).getByRole('button', { name: 'Re-issue' }));
    expect(await screen.findByText(CA.reissued(2))).toBeTruthy();
    expect(callsTo('certificates.reissue').map((call) => call.input)).toEqual([{ certificateId: server.rows[0]!.id }]);
    await waitFor(() => expect(tableRow('MTA/2026/000001').textContent).toContain('v2'));
  });

  it('says why a re-issue was refused', async () => {
    server.reissueRefusal = serverError(409, CA.cannotReissuePending);
    const user = open();
    await user.click(within(await waitFor(() => tableRow('MTA/2026/000001'))).getByRole('button', { name: 'Re-issue certificate MTA/2026/000001' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Re-issue' }));
    expect(await screen.findByText(CA.cannotReissuePending)).toBeTruthy();
    expect(tableRow('MTA/2026/000001').textContent).toContain('v1');
  });

  it('lists a certificate’s reminder history: stage, sent or queued, to whom, run by', async () => {
    server.reminders = [
      { daysBefore: 30, validUntil: '2026-12-20', queuedAt: '2026-11-20T06:00:00.000Z', sentAt: null, to: 'learner2@example.com', runBy: 'Asha Admin' },
      { daysBefore: 90, validUntil: '2026-12-20', queuedAt: '2026-09-21T06:00:00.000Z', sentAt: '2026-09-21T06:00:05.000Z', to: 'learner2@example.com', runBy: 'schedule' },
    ];
    const user = open();
    await user.click(within(await waitFor(() => tableRow('MTA/2026/000002'))).getByRole('button', { name: 'Reminder history of certificate MTA/2026/000002' }));
    const list = await screen.findByRole('list', { name: 'Reminders of certificate MTA/2026/000002' });
    const [latest, first] = within(list).getAllByRole('listitem');
    expect(latest!.textContent).toContain('30 days before expiry');
    expect(latest!.textContent).toContain('not sent yet');
    expect(latest!.textContent).toContain('Run by Asha Admin');
    expect(first!.textContent).toContain('90 days before expiry');
    expect(first!.textContent).toContain('Sent ');
    expect(first!.textContent).toContain('To learner2@example.com');
    expect(first!.textContent).toContain('Run by the daily schedule');
    expect(callsTo('certificates.reminders').at(-1)!.input).toEqual({ certificateId: server.rows[1]!.id });
  });

  it('sends the due reminders now and says how many were queued', async () => {
    server.queued = 2;
    const user = open();
    await waitFor(() => tableRow('MTA/2026/000001'));
    await user.click(screen.getByRole('button', { name: 'Send due reminders now' }));
    await waitFor(() => expect(screen.getAllByText(CA.remindersRun(2)).length).toBeGreaterThan(0));
    expect(callsTo('certificates.runRemindersNow')).toHaveLength(1);
  });

  it('downloads the CSV of the list with the filters in the address', async () => {
    const fetch = vi.fn(async (_url: string) => new Response('Number\r\n', { headers: { 'content-disposition': 'attachment; filename="certificates.csv"' } }));
    vi.stubGlobal('fetch', fetch);
    URL.createObjectURL = () => 'blob:certificates';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = open(`${PATTERN}?q=learner&state=expiring&course=${COURSE_ID}&within=30`);
    await waitFor(() => tableRow('MTA/2026/000002'));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText(CA.exported)).toBeTruthy();
    expect(fetch.mock.calls[0]![0]).toBe(`/api/certificates/list.csv?search=learner&courseId=${COURSE_ID}&state=expiring&expiringWithinDays=30`);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('offers an auditor the certificates to read, and nothing that changes one: no Revoke, Re-issue or Send due reminders', async () => {
    open(PATTERN, 'auditor');
    const first = await waitFor(() => tableRow('MTA/2026/000001'));
    expect(within(first).getByRole('link', { name: 'View PDF of certificate MTA/2026/000001' })).toBeTruthy();
    expect(within(first).getByRole('link', { name: 'Profile of Learner 1' })).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Reminder history of certificate MTA/2026/000001' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Regulator export' })).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^(Revoke|Re-issue) certificate/ })).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Send due reminders now' })).toBeNull();
  });

  it('offers no action while the role loads, and the owner’s once it is known', async () => {
    let knowRole = () => {};
    server.roleGate = new Promise((resolve) => (knowRole = resolve));
    open();
    const first = await waitFor(() => tableRow('MTA/2026/000001'));
    expect(within(first).queryByRole('button', { name: 'Revoke certificate MTA/2026/000001' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send due reminders now' })).toBeNull();
    knowRole();
    expect(await within(first).findByRole('button', { name: 'Revoke certificate MTA/2026/000001' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send due reminders now' })).toBeTruthy();
  });
});

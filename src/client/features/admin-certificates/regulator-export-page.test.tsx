import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TRegulatorBatch, TRegulatorRow } from '../../../shared/schemas/certificate.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { RegulatorExportPage } from '@/features/admin-certificates/regulator-export-page.tsx';
import { renderWithServer, serverError } from '@/testing/fake-trpc.tsx';

const CA = MESSAGES.certificateAdmin;
const COURSE_ID = '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';
const PATTERN = '/admin-dashboard/certificates/regulator-export';

function regulatorRow(serial: number, extra: Partial<TRegulatorRow> = {}): TRegulatorRow {
  return {
    certificateId: `0b7e2c36-6c1a-4a4e-9d43-${String(serial).padStart(12, '0')}`,
    userId: `9c1d2a8b-3c4d-4e5f-9a01-${String(serial).padStart(12, '0')}`,
    indosNo: `IND${serial}`,
    nameAsInPassport: `Seafarer ${serial}`,
    dateOfBirth: '1994-05-14',
    passportNumber: `P${serial}`,
    cdcNumber: `CDC${serial}`,
    courseCode: 'FPFF',
    approvalNumber: 'DGS/2026/17',
    batchStart: '2026-11-01',
    batchEnd: '2026-11-30',
    certificateNumber: `MTA/2026/${String(serial).padStart(6, '0')}`,
    issueDate: '2026-11-20',
    validUntil: '2031-11-19',
    verified: true,
    verifiedBy: 'Leela Pillai',
    verifiedOn: '2026-11-02',
    missing: [],
    ...extra,
  };
}

function batch(extra: Partial<TRegulatorBatch> = {}): TRegulatorBatch {
  return {
    course: { id: COURSE_ID, title: 'Fire Prevention and Fire Fighting', code: 'FPFF', approvalNumber: 'DGS/2026/17' },
    from: '2026-11-01',
    to: '2026-11-30',
    rows: [
      regulatorRow(1),
      regulatorRow(2, { indosNo: '', cdcNumber: '', missing: ['indosNo', 'cdcNumber'] }),
      regulatorRow(3, { dateOfBirth: '', passportNumber: '', missing: ['dateOfBirth', 'passportNumber'] }),
    ],
    courseMissing: [],
    ...extra,
  };
}

const server = { batch: batch(), refusal: null as Error | null, calls: [] as { path: string; input: Record<string, unknown> }[] };

function answer(path: string, input: Record<string, unknown>): unknown {
  server.calls.push({ path, input });
  if (path === 'courses.adminList') return [{ id: COURSE_ID, title: 'Fire Prevention and Fire Fighting', isActive: true }];
  if (path === 'certificates.regulatorBatch') {
    if (server.refusal) throw server.refusal;
    return server.batch;
  }
  throw new Error(`unexpected call ${path}`);
}

const open = () =>
  renderWithServer(
    <>
      <RegulatorExportPage />
      <Toaster />
    </>,
    { url: PATTERN, pattern: PATTERN, answer },
  ).user;

async function preview(user: ReturnType<typeof open>, { from = '2026-11-01', to = '2026-11-30' } = {}) {
  await screen.findByRole('option', { name: 'Fire Prevention and Fire Fighting' });
  await user.selectOptions(screen.getByLabelText('Course'), COURSE_ID);
  await user.clear(screen.getByLabelText('Issued from'));
  await user.type(screen.getByLabelText('Issued from'), from);
  await user.clear(screen.getByLabelText('Issued to'));
  await user.type(screen.getByLabelText('Issued to'), to);
  await user.click(screen.getByRole('button', { name: 'Preview batch' }));
}

beforeEach(() => {
  server.batch = batch();
  server.refusal = null;
  server.calls = [];
});

afterEach(() => {
  toast.dismiss();
  vi.unstubAllGlobals();
});

describe('Regulator export', { timeout: 20_000 }, () => {
  it('asks for a course and an ordered range before asking the server', async () => {
    const user = open();
    await screen.findByRole('option', { name: 'Fire Prevention and Fire Fighting' });
    await user.click(screen.getByRole('button', { name: 'Preview batch' }));
    expect(screen.getByText(MESSAGES.tests.courseRequired)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Course'));

    await preview(user, { from: '2026-11-30', to: '2026-11-01' });
    expect(screen.getByText(CA.rangeOrder)).toBeTruthy();
    expect(screen.getByLabelText('Issued to').getAttribute('aria-invalid')).toBe('true');
    expect(server.calls.filter((call) => call.path === 'certificates.regulatorBatch')).toHaveLength(0);
  });

  it('shows the server’s words when it refuses the batch', async () => {
    server.refusal = serverError(400, CA.unknownCourse);
    const user = open();
    await preview(user);
    expect(await screen.findByText(CA.unknownCourse)).toBeTruthy();
  });

  it('lists the completions that lack a required field first, in words, each with a link to the profile, then the rows', async () => {
    const user = open();
    await preview(user);
    const missing = await screen.findByRole('region', { name: '2 completions lack a required field' });
    const items = within(within(missing).getByRole('list', { name: 'Completions that lack a required field' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Seafarer 2');
    expect(items[0]!.textContent).toContain('MTA/2026/000002');
    expect(items[0]!.textContent).toContain('Missing: INDoS number and CDC number');
    expect(within(items[0]!).getByRole('link', { name: 'Profile of the holder of MTA/2026/000002' }).getAttribute('href')).toBe(
      `/admin-dashboard/user-profiles/${server.batch.rows[1]!.userId}`,
    );
    expect(items[1]!.textContent).toContain('Missing: Date of birth and passport number');
    // The list comes before the rows.
    const rows = screen.getByRole('region', { name: 'Rows of the batch' });
    expect(missing.compareDocumentPosition(rows) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(rows).getAllByRole('row')).toHaveLength(4);
    expect(server.calls.filter((call) => call.path === 'certificates.regulatorBatch').at(-1)!.input).toEqual({ courseId: COURSE_ID, from: '2026-11-01', to: '2026-11-30' });
  });

  it('says what the course itself lacks, with a link to its settings', async () => {
    server.batch = batch({ courseMissing: ['courseCode', 'approvalNumber'], rows: [regulatorRow(1, { courseCode: '', approvalNumber: '' })] });
    const user = open();
    await preview(user);
    const missing = await screen.findByRole('region', { name: 'The course lacks what the regulator requires' });
    expect(missing.textContent).toContain('The course has no course code or approval number.');
    expect(within(missing).getByRole('link', { name: 'Open the course’s certificate settings' }).getAttribute('href')).toBe(`/admin-dashboard/create-course?edit=${COURSE_ID}`);
  });

  it('says when the batch is empty, and offers no download', async () => {
    server.batch = batch({ rows: [] });
    const user = open();
    await preview(user);
    expect(await screen.findByText('No completions in this batch.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it('downloads the batch as XLSX with the course and days previewed', async () => {
    const fetch = vi.fn(async (_url: string) => new Response('xlsx', { headers: { 'content-disposition': 'attachment; filename="batch.xlsx"' } }));
    vi.stubGlobal('fetch', fetch);
    URL.createObjectURL = () => 'blob:batch';
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = open();
    await preview(user);
    await user.click(await screen.findByRole('button', { name: 'Download XLSX' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch.mock.calls[0]![0]).toBe(`/api/certificates/regulator-batch.xlsx?courseId=${COURSE_ID}&from=2026-11-01&to=2026-11-30`);
    expect(await screen.findByText(CA.exported)).toBeTruthy();
  });
});

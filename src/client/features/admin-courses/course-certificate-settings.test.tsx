import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourseCertificateSettings } from '../../../shared/schemas/course.ts';
import { CourseCertificateSettings } from '@/features/admin-courses/course-certificate-settings.tsx';
import { renderWithServer, serverError } from '@/testing/fake-trpc.tsx';
import { TRPCClientError } from '@trpc/client';

const CC = MESSAGES.courseCertificate;
const COURSE_ID = '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7';
const REFRESHER_ID = '7a2e3b9c-4d5e-4f60-8b12-c3d4e5f6a7b8';

/** A 400 as the server answers a refused field: its message, and each field's. */
function fieldRefusal(fields: Record<string, string>) {
  return TRPCClientError.from({ error: { message: Object.values(fields)[0]!, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, fields } } });
}

const server = {
  settings: { code: null, approvalNumber: null, validityMonths: null, refresher: null, testRequiresApprovedProfile: false } as TCourseCertificateSettings,
  refusal: null as Error | null,
  updates: [] as Record<string, unknown>[],
};

function answer(path: string, input: Record<string, unknown>): unknown {
  if (path === 'courses.certificateSettings') return server.settings;
  if (path === 'courses.adminList') {
    return [
      { id: COURSE_ID, title: 'Fire Prevention and Fire Fighting', isActive: true },
      { id: REFRESHER_ID, title: 'FPFF Refresher', isActive: true },
    ];
  }
  if (path === 'courses.updateCertificateSettings') {
    server.updates.push(input);
    if (server.refusal) throw server.refusal;
    server.settings = {
      code: typeof input.code === 'string' && input.code ? input.code.toUpperCase() : null,
      approvalNumber: typeof input.approvalNumber === 'string' && input.approvalNumber ? input.approvalNumber : null,
      validityMonths: (input.validityMonths as number | null) ?? null,
      refresher: input.refresherCourseId === REFRESHER_ID ? { id: REFRESHER_ID, title: 'FPFF Refresher' } : null,
      testRequiresApprovedProfile: input.testRequiresApprovedProfile === true,
    };
    return { message: CC.saved, settings: server.settings };
  }
  throw new Error(`unexpected call ${path}`);
}

const open = () =>
  renderWithServer(<CourseCertificateSettings courseId={COURSE_ID} />, {
    url: `/admin-dashboard/create-course?edit=${COURSE_ID}`,
    pattern: '/admin-dashboard/create-course',
    answer,
  }).user;

beforeEach(() => {
  server.settings = { code: null, approvalNumber: null, validityMonths: null, refresher: null, testRequiresApprovedProfile: false };
  server.refusal = null;
  server.updates = [];
});

describe('a course’s certificate settings', { timeout: 20_000 }, () => {
  it('saves the code, approval number, validity, refresher (never the course itself) and the profile rule, and says so', async () => {
    const user = open();
    await user.type(await screen.findByLabelText('Course code'), 'fpff');
    await user.type(screen.getByLabelText('Approval number'), 'DGS/2026/17');
    await user.click(screen.getByLabelText('Valid for a number of months'));
    await user.type(screen.getByLabelText('Months'), '60');
    await screen.findByRole('option', { name: 'FPFF Refresher' });
    expect(screen.queryByRole('option', { name: 'Fire Prevention and Fire Fighting' })).toBeNull();
    await user.selectOptions(screen.getByLabelText('Refresher course'), REFRESHER_ID);
    await user.click(screen.getByRole('checkbox', { name: 'The test requires a complete, approved seafarer profile' }));
    await user.click(screen.getByRole('button', { name: 'Save certificate settings' }));

    expect(await screen.findByText(CC.saved)).toBeTruthy();
    expect(server.updates).toEqual([
      { courseId: COURSE_ID, code: 'fpff', approvalNumber: 'DGS/2026/17', validityMonths: 60, refresherCourseId: REFRESHER_ID, testRequiresApprovedProfile: true },
    ]);
    // The form shows what the server saved.
    expect((screen.getByLabelText('Course code') as HTMLInputElement).value).toBe('FPFF');
  });

  it('asks for a number of months from 1 to 120 when the certificate expires, before asking the server', async () => {
    const user = open();
    await user.click(await screen.findByLabelText('Valid for a number of months'));
    await user.click(screen.getByRole('button', { name: 'Save certificate settings' }));
    expect(screen.getByText(CC.validityRange)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Months'));
    await user.type(screen.getByLabelText('Months'), '121');
    await user.click(screen.getByRole('button', { name: 'Save certificate settings' }));
    expect(screen.getByText(CC.validityRange)).toBeTruthy();
    expect(screen.getByLabelText('Months').getAttribute('aria-invalid')).toBe('true');
    expect(server.updates).toHaveLength(0);

    // "Does not expire" sends none.
    await user.click(screen.getByLabelText('Does not expire'));
    await user.click(screen.getByRole('button', { name: 'Save certificate settings' }));
    await waitFor(() => expect(server.updates).toHaveLength(1));
    expect(server.updates[0]).toMatchObject({ validityMonths: null, code: '', refresherCourseId: null });
  });

  it('puts the server’s words for a refused field under that field', async () => {
    server.refusal = fieldRefusal({ code: CC.codeFormat });
    const user = open();
    await user.type(await screen.findByLabelText('Course code'), 'F!');
    await user.click(screen.getByRole('button', { name: 'Save certificate settings' }));
    expect(await screen.findByText(CC.codeFormat)).toBeTruthy();
    const code = screen.getByLabelText('Course code');
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(code.getAttribute('aria-describedby')).toContain('certificate-code-error');
    expect(document.activeElement).toBe(code);
    expect(screen.queryByText(CC.saved)).toBeNull();
  });

  it('says a refusal without a field above the form', async () => {
    server.refusal = serverError(404, MESSAGES.courses.notFound);
    const user = open();
    await user.click(await screen.findByRole('button', { name: 'Save certificate settings' }));
    expect(await screen.findByText(MESSAGES.courses.notFound)).toBeTruthy();
  });

  it('shows the saved settings', async () => {
    server.settings = { code: 'FPFF', approvalNumber: 'DGS/2026/17', validityMonths: 60, refresher: { id: REFRESHER_ID, title: 'FPFF Refresher' }, testRequiresApprovedProfile: true };
    open();
    expect(((await screen.findByLabelText('Course code')) as HTMLInputElement).value).toBe('FPFF');
    expect((screen.getByLabelText('Months') as HTMLInputElement).value).toBe('60');
    expect((screen.getByLabelText('Valid for a number of months') as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect((screen.getByLabelText('Refresher course') as HTMLSelectElement).value).toBe(REFRESHER_ID));
    expect(screen.getByRole('checkbox', { name: 'The test requires a complete, approved seafarer profile' }).matches(':checked')).toBe(true);
  });
});

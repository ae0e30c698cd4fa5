import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TUserListItem } from '../../../shared/schemas/users.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { UnapprovedUsersPage } from '@/features/admin-users/unapproved-users-page.tsx';
import { renderWithServer } from '@/testing/fake-trpc.tsx';

const PATTERN = '/admin-dashboard/unapproved-users';

const waiting: TUserListItem = {
  id: '9c1d2a8b-3c4d-4e5f-9a01-000000000001',
  title: 'Ms',
  firstName: 'Kavya',
  lastName: 'Menon',
  name: 'Kavya Menon',
  email: 'kavya@example.com',
  mobile: '9876543210',
  verified: true,
  registeredAt: '2026-11-20T08:00:00.000Z',
  approvedAt: null,
};

function answer(path: string): unknown {
  if (path === 'users.listUnapproved') return { items: [waiting], total: 1, page: 1, pageSize: 20 };
  throw new Error(`unexpected call ${path}`);
}

const open = (staffRole: TStaffRole) => renderWithServer(<UnapprovedUsersPage />, { url: PATTERN, pattern: PATTERN, answer, staffRole });

describe('Unapproved Users as each role sees them', () => {
  it('offers a registrar Approve beside the profile', async () => {
    open('registrar');
    const row = (await screen.findAllByText('Kavya Menon'))[0]!.closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Approve Kavya Menon' })).toBeTruthy();
  });

  it('shows an auditor the waiting learners and their profiles, with no Approve', async () => {
    open('auditor');
    const row = (await screen.findAllByText('Kavya Menon'))[0]!.closest('tr')!;
    expect(within(row).getByRole('link', { name: 'View profile of Kavya Menon' })).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^Approve/ })).toEqual([]);
  });
});

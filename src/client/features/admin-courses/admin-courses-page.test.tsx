import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TCourse } from '../../../shared/schemas/course.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { AdminCoursesPage } from '@/features/admin-courses/admin-courses-page.tsx';
import { renderWithServer } from '@/testing/fake-trpc.tsx';

const PATTERN = '/admin-dashboard/courses';

function course(id: string, title: string, isActive: boolean): TCourse {
  const at = '2026-11-20T08:00:00.000Z';
  return { id, title, description: 'Fire prevention and fighting on board.', duration: '3 days', price: 4500, category: 'STCW', subjects: ['Fire'], image: null, isActive, createdAt: at, updatedAt: at };
}

const COURSES = [course('c1', 'Advanced Fire Fighting', true), course('c2', 'Medical First Aid', false)];

function answer(path: string): unknown {
  if (path === 'courses.adminList') return COURSES;
  throw new Error(`unexpected call ${path}`);
}

const open = (staffRole: TStaffRole) => renderWithServer(<AdminCoursesPage />, { url: PATTERN, pattern: PATTERN, answer, staffRole });

describe('All Courses as each role sees them', () => {
  it('offers an instructor Create Course, and Edit and Activate or Deactivate on each course', async () => {
    open('instructor');
    const active = await screen.findByRole('article', { name: 'Advanced Fire Fighting' });
    expect(within(active).getByRole('link', { name: 'Edit Advanced Fire Fighting' })).toBeTruthy();
    expect(within(active).getByRole('button', { name: 'Deactivate Advanced Fire Fighting' })).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Medical First Aid' })).getByRole('button', { name: 'Activate Medical First Aid' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create Course' })).toBeTruthy();
  });

  for (const staffRole of ['registrar', 'auditor'] as const) {
    it(`shows a${staffRole === 'auditor' ? 'n' : ''} ${staffRole} every course and its state, with nothing that changes one`, async () => {
      open(staffRole);
      const active = await screen.findByRole('article', { name: 'Advanced Fire Fighting' });
      expect(within(active).getByText('Active')).toBeTruthy();
      expect(within(screen.getByRole('article', { name: 'Medical First Aid' })).getByText('Inactive')).toBeTruthy();
      expect(screen.queryAllByRole('button')).toEqual([]);
      expect(screen.queryAllByRole('link', { name: /^(Edit |Create Course)/ })).toEqual([]);
    });
  }
});

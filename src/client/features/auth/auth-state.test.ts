import { describe, expect, it } from 'vitest';
import { destinationAfterLogin } from '@/features/auth/auth-state.ts';
import { loginReturn } from '@/lib/session/login-return.ts';

describe('destinationAfterLogin', () => {
  const learner = { id: 'u-2', role: 'learner' };

  it('goes where the learner asked, or where their own session ended', () => {
    expect(destinationAfterLogin(learner, { from: '/training/c1' })).toBe('/training/c1');
    expect(destinationAfterLogin(learner, loginReturn('/training/c1', 'u-2'))).toBe('/training/c1');
  });

  it('never to the page another learner’s session ended on: their own dashboard instead', () => {
    expect(destinationAfterLogin(learner, loginReturn('/training/c1', 'u-1'))).toBe('/dashboard');
    expect(destinationAfterLogin({ id: 'a-1', role: 'admin' }, loginReturn('/admin-dashboard/users', 'a-2'))).toBe('/admin-dashboard');
  });

  it('never off the site, nor a learner into the admin area', () => {
    expect(destinationAfterLogin(learner, { from: '//elsewhere.example/x' })).toBe('/dashboard');
    expect(destinationAfterLogin(learner, { from: '/admin-dashboard/users' })).toBe('/dashboard');
  });
});

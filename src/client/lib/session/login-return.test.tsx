import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, NavigationType } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { askedForHere, useLoginReturn } from '@/lib/session/login-return.ts';

const at = (entry: string) =>
  function Router({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[entry]}>{children}</MemoryRouter>;
  };

describe('useLoginReturn', () => {
  it('brings a visitor back to the page they opened', () => {
    const { result } = renderHook(() => useLoginReturn(false), { wrapper: at('/training/c1?part=2') });
    expect(result.current).toEqual({ from: '/training/c1?part=2' });
  });

  it('brings nobody back to a page whose session ended while it was open (a logout, here or in another tab)', () => {
    const { result, rerender } = renderHook(({ signedIn }) => useLoginReturn(signedIn), {
      wrapper: at('/training/c1'),
      initialProps: { signedIn: true },
    });
    expect(result.current).toBeUndefined();
    rerender({ signedIn: false });
    expect(result.current).toBeUndefined();
  });
});

describe('askedForHere', () => {
  it('takes the app’s own navigations and the document’s first address, not a step through history', () => {
    expect(askedForHere(NavigationType.Push, { key: 'k1' })).toBe(true);
    expect(askedForHere(NavigationType.Replace, { key: 'k1' })).toBe(true);
    expect(askedForHere(NavigationType.Pop, { key: 'default' })).toBe(true);
    expect(askedForHere(NavigationType.Pop, { key: 'k1' })).toBe(false);
  });
});

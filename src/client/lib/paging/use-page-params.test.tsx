import { act, renderHook } from '@testing-library/react';
import { type ReactNode, useEffect } from 'react';
import { MemoryRouter, type NavigationType, useLocation, useNavigationType } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageFrom, usePageParams, wholeList } from '@/lib/paging/use-page-params.ts';

/** The address and how the router got there, as the last render saw them. */
const seen: { search?: string; navigation?: NavigationType } = {};

function AddressProbe() {
  const { search } = useLocation();
  const navigation = useNavigationType();
  useEffect(() => {
    seen.search = search;
    seen.navigation = navigation;
  }, [search, navigation]);
  return null;
}

function renderPaging(at: string, options?: Parameters<typeof usePageParams>[0]) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[at]}>
      {children}
      <AddressProbe />
    </MemoryRouter>
  );
  return renderHook(() => usePageParams(options), { wrapper });
}

beforeEach(() => {
  vi.useFakeTimers();
  seen.search = undefined;
  seen.navigation = undefined;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('usePageParams', () => {
  it('reads the page and the search from the address', () => {
    const { result } = renderPaging('/admin-dashboard/user-profiles?q=menon&page=3');
    expect(result.current.page).toBe(3);
    expect(result.current.search).toBe('menon');
    expect(result.current.term).toBe('menon');
    expect(result.current.typing).toBe(false);
  });

  it('reads a missing or malformed page as the first', () => {
    expect(renderPaging('/admin-dashboard/approved-users').result.current.page).toBe(1);
    expect(pageFrom('0')).toBe(1);
    expect(pageFrom('-2')).toBe(1);
    expect(pageFrom('2.5')).toBe(1);
    expect(pageFrom('abc')).toBe(1);
    expect(pageFrom('12')).toBe(12);
  });

  it('moves to another page as a step in the history, keeping the search; the first page has no parameter', () => {
    const { result } = renderPaging('/admin-dashboard/user-profiles?q=menon');
    act(() => result.current.setPage(4));
    expect(result.current.page).toBe(4);
    expect(seen.search).toBe('?q=menon&page=4');
    expect(seen.navigation).toBe('PUSH');

    act(() => result.current.setPage(1));
    expect(result.current.page).toBe(1);
    expect(seen.search).toBe('?q=menon');
  });

  it('can replace the current step instead (a page that emptied itself)', () => {
    const { result } = renderPaging('/admin-dashboard/unapproved-users?page=5');
    act(() => result.current.setPage(2, { replace: true }));
    expect(seen.search).toBe('?page=2');
    expect(seen.navigation).toBe('REPLACE');
  });

  it('searches once the typed words have rested, from the first page, without a history step', () => {
    const { result } = renderPaging('/admin-dashboard/enrollment-request?page=3', { searchDelayMs: 300 });
    act(() => result.current.setTerm('  kav'));
    expect(result.current.typing).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    act(() => result.current.setTerm('  kavya '));
    act(() => vi.advanceTimersByTime(299));
    // Still typing: nothing searched yet, the page is kept.
    expect(result.current.search).toBe('');
    expect(result.current.page).toBe(3);

    act(() => vi.advanceTimersByTime(1));
    expect(result.current.search).toBe('kavya');
    expect(result.current.page).toBe(1);
    expect(result.current.typing).toBe(false);
    expect(seen.search).toBe('?q=kavya');
    expect(seen.navigation).toBe('REPLACE');
  });

  it('forgets the search when the box is cleared', () => {
    const { result } = renderPaging('/admin-dashboard/user-profiles?q=menon&page=2', { searchDelayMs: 350 });
    act(() => result.current.setTerm(''));
    act(() => vi.advanceTimersByTime(350));
    expect(result.current.search).toBe('');
    expect(seen.search).toBe('');
  });

  it('brings the top of the window into view on a page change when asked to', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const { result } = renderPaging('/admin-dashboard/user-profiles', { scrollToTop: true });
    act(() => result.current.setPage(2));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });

    scrollTo.mockClear();
    const plain = renderPaging('/admin-dashboard/approved-users');
    act(() => plain.result.current.setPage(2));
    expect(scrollTo).not.toHaveBeenCalled();
  });
});

describe('wholeList', () => {
  it('presents an unpaged list as its one page', () => {
    expect(wholeList(['a', 'b', 'c'])).toEqual({ items: ['a', 'b', 'c'], total: 3, page: 1, pageSize: 3 });
    expect(wholeList([])).toEqual({ items: [], total: 0, page: 1, pageSize: 1 });
    expect(wholeList(undefined)).toBeUndefined();
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PagedList } from '@/components/lists/paged-list.tsx';
import type { TPage } from '@/lib/paging/use-page-params.ts';

function page(items: string[], total: number, at = 1, pageSize = 2): TPage<string> {
  return { items, total, page: at, pageSize };
}

function renderList(
  query: { data: TPage<string> | undefined; isError: boolean; isPlaceholderData?: boolean },
  props: Partial<Parameters<typeof PagedList<string>>[0]> = {},
) {
  const setPage = vi.fn();
  render(
    <PagedList
      query={query}
      paging={{ page: query.data?.page ?? 1, setPage }}
      noun="users"
      loading={<p>Loading users</p>}
      empty={<p>No users</p>}
      error={<p>Could not load</p>}
      {...props}
    >
      {(items) => (
        <ul>
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </PagedList>,
  );
  return { setPage };
}

describe('PagedList', () => {
  it('shows the loading state until the first page arrives', () => {
    renderList({ data: undefined, isError: false });
    expect(screen.getByText('Loading users')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows the items and the pagination', () => {
    renderList({ data: page(['Asha', 'Ravi'], 5), isError: false });
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Asha', 'Ravi']);
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain('Showing 1–2 of 5 users');
  });

  it('says so when there is nothing to list', () => {
    renderList({ data: page([], 0), isError: false });
    expect(screen.getByText('No users')).toBeTruthy();
  });

  it('shows the error, never an empty list, when nothing could be loaded', () => {
    renderList({ data: undefined, isError: true });
    expect(screen.getByText('Could not load')).toBeTruthy();
    expect(screen.queryByText('No users')).toBeNull();
  });

  it('keeps the earlier page under the error, or hides it, as the screen asks', () => {
    renderList({ data: page(['Asha'], 1), isError: true });
    expect(screen.getByText('Could not load')).toBeTruthy();
    expect(screen.getByText('Asha')).toBeTruthy();
  });

  it('hides the earlier page under an error when asked to', () => {
    renderList({ data: page(['Asha'], 1), isError: true }, { staleOnError: 'hide' });
    expect(screen.getByText('Could not load')).toBeTruthy();
    expect(screen.queryByText('Asha')).toBeNull();
  });

  it('moves back to the last page when the page asked for has emptied', () => {
    const { setPage } = renderList({ data: page([], 5, 4), isError: false });
    expect(setPage).toHaveBeenCalledWith(3, { replace: true });
  });

  it('or says the page is empty when the screen would rather', () => {
    const { setPage } = renderList({ data: page([], 5, 4), isError: false }, { keepPageInRange: false });
    expect(setPage).not.toHaveBeenCalled();
    expect(screen.getByText('No users')).toBeTruthy();
  });

  it('waits for the page asked for before moving (an earlier page may stand in meanwhile)', () => {
    const { setPage } = renderList({ data: page([], 5, 4), isError: false, isPlaceholderData: true });
    expect(setPage).not.toHaveBeenCalled();
  });
});

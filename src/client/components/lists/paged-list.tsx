import { type ReactNode, useEffect } from 'react';
import { Pagination } from '@/components/ui/pagination.tsx';
import type { TPage } from '@/lib/paging/use-page-params.ts';
import { cn } from '@/lib/utils.ts';

type TPagedQuery<T> = {
  /** The page to show: the one asked for, or the previous one while it loads. */
  data: TPage<T> | undefined;
  isError: boolean;
  /** `data` is the previous page, kept up while the one asked for loads. */
  isPlaceholderData?: boolean;
};

type PagedListProps<T> = {
  query: TPagedQuery<T>;
  /** The page asked for and the way to another (usePageParams); a list the server answers whole has none. */
  paging?: { page: number; setPage: (page: number, options?: { replace?: boolean }) => void };
  /** What the list holds, for the pagination's summary ("users"). */
  noun: string;
  /** Shown until the first page arrives. */
  loading: ReactNode;
  /** Shown when there is nothing to list. */
  empty: ReactNode;
  /** Shown when the list could not be loaded (never an empty list in its place). */
  error: ReactNode;
  /**
   * An error while an earlier page is still at hand: `hide` shows only the error, `show` keeps
   * that page under it.
   */
  staleOnError?: 'hide' | 'show';
  /**
   * A page past the end (its last items were just dealt with elsewhere): true moves to the last
   * page that has items, false shows `empty`.
   */
  keepPageInRange?: boolean;
  /** A line above the items ("12 profiles matching …"). */
  summary?: (data: TPage<T>) => ReactNode;
  /** Spacing between the summary, the items and the pagination; `gap-4` unless given. */
  className?: string;
  paginationClassName?: string;
  /** The items, laid out as the screen likes (table rows, cards). */
  children: (items: T[]) => ReactNode;
};

/**
 * A paged list from the server with its loading, empty and error states and the pagination
 * control: the admin lists of users, profiles, enrolment requests and courses.
 */
export function PagedList<T>({
  query,
  paging,
  noun,
  loading,
  empty,
  error,
  staleOnError = 'show',
  keepPageInRange = true,
  summary,
  className = 'gap-4',
  paginationClassName,
  children,
}: PagedListProps<T>) {
  const { data, isError, isPlaceholderData = false } = query;
  const pastEnd = data !== undefined && data.items.length === 0 && data.total > 0;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const page = paging?.page ?? 1;
  const setPage = paging?.setPage;

  useEffect(() => {
    if (setPage && keepPageInRange && pastEnd && !isPlaceholderData && page > lastPage) setPage(lastPage, { replace: true });
  }, [setPage, keepPageInRange, pastEnd, isPlaceholderData, page, lastPage]);

  if (isError && (!data || staleOnError === 'hide')) return error;
  if (!data) return loading;
  const errorAbove = isError && <div className="mb-6">{error}</div>;
  if (data.total === 0 || (pastEnd && !keepPageInRange)) {
    return (
      <>
        {errorAbove}
        {empty}
      </>
    );
  }
  return (
    <>
      {errorAbove}
      <div className={cn('grid', className)}>
        {summary?.(data)}
        {children(data.items)}
        {setPage && (
          <Pagination
            page={page}
            pageSize={data.pageSize}
            total={data.total}
            onPageChange={setPage}
            noun={noun}
            className={paginationClassName}
          />
        )}
      </div>
    </>
  );
}

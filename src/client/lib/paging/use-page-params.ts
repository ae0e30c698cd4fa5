import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';

/** A page of a list as the server answers it (the shape every paged call shares). */
export type TPage<T> = { items: T[]; total: number; page: number; pageSize: number; totalIsEstimate?: boolean };

/** An unpaged list shown as its one and only page, so it can use the same list component. */
export function wholeList<T>(items: T[] | undefined): TPage<T> | undefined {
  return items && { items, total: items.length, page: 1, pageSize: Math.max(1, items.length) };
}

const PAGE = 'page';
const SEARCH = 'q';

/** The page number in the address: a whole number from 1, else 1. */
export function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** `current` with the page (first page: no parameter) and, when given, the search (empty: none). */
function withList(current: URLSearchParams, { page, search }: { page: number; search?: string }): URLSearchParams {
  const next = new URLSearchParams(current);
  if (search !== undefined) {
    if (search) next.set(SEARCH, search);
    else next.delete(SEARCH);
  }
  if (page <= 1) next.delete(PAGE);
  else next.set(PAGE, String(page));
  return next;
}

type TPageParamsOptions = {
  /** How long the typed search must rest before it is searched for. */
  searchDelayMs?: number;
  /** Bring the top of the window into view on each page change (for long lists of cards). */
  scrollToTop?: boolean;
};

/**
 * A list's page and search, kept in the address (`?q=menon&page=3`), so a reload, a shared link
 * and the back button from a detail page all return to the same results. Each page change is a
 * step in the history; searching replaces the step and starts again from the first page.
 *
 * `term` is what the search box holds; it becomes `search` (what the query asks for) once it has
 * rested for `searchDelayMs`, and `typing` says it has not yet.
 */
export function usePageParams({ searchDelayMs = 300, scrollToTop = false }: TPageParamsOptions = {}) {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get(PAGE));
  const search = params.get(SEARCH) ?? '';
  const [term, setTerm] = useState(search);
  const settled = useDebouncedValue(term.trim(), searchDelayMs);

  useEffect(() => {
    if (settled === search) return;
    setParams((current) => withList(current, { page: 1, search: settled }), { replace: true });
  }, [settled, search, setParams]);

  const setPage = useCallback(
    (next: number, { replace = false }: { replace?: boolean } = {}) => {
      setParams((current) => withList(current, { page: next }), { replace });
      if (scrollToTop) window.scrollTo({ top: 0 });
    },
    [setParams, scrollToTop],
  );

  return { page, setPage, search, term, setTerm, typing: term.trim() !== search };
}

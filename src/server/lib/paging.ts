import { z } from 'zod';
import type { TPage } from '../../shared/schemas/paging.ts';
import { MESSAGES } from '../../shared/messages.ts';

const V = MESSAGES.validation;

/** Which rows a page covers. */
export type TPageWindow = { limit: number; offset: number };

/**
 * Reads one page of a list: the repository's `find` gets the page's window and answers its rows
 * with the total of the whole (filtered) list; each row becomes an item. The one server-side paging
 * step every admin list goes through; each repository keeps the query plan that suits its list.
 */
export async function readPage<Row, Item>(
  query: { page?: number | undefined; pageSize?: number | undefined },
  defaultSize: number,
  find: (window: TPageWindow) => Promise<{ rows: Row[]; total: number }>,
  toItem: (row: Row) => Item,
): Promise<TPage<Item>> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? defaultSize;
  const { rows, total } = await find({ limit: pageSize, offset: (page - 1) * pageSize });
  return { items: rows.map(toItem), total, page, pageSize };
}

/** A whole number sent as text in a query string (up to six digits), or absent. */
export function queryDigits(message: string) {
  return z
    .string({ error: message })
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .optional();
}

/**
 * The paging parameters of a REST list's query string, read from digits: `page` and `pageSize`
 * (`limit` is the spec's name for the page size on some lists). Spread into the list's query-string
 * object, then `.transform(pageSizeFromLimit)` and `.pipe()` into the list's own query schema,
 * which bounds them.
 */
export const REST_PAGE_PARAMS = {
  page: queryDigits(V.page),
  pageSize: queryDigits(V.pageSize),
  limit: queryDigits(V.pageSize),
};

export function pageSizeFromLimit<T extends { limit?: number | undefined; pageSize?: number | undefined }>({
  limit,
  pageSize,
  ...rest
}: T): Omit<T, 'limit' | 'pageSize'> & { pageSize?: number } {
  const size = pageSize ?? limit;
  return size === undefined ? rest : { ...rest, pageSize: size };
}

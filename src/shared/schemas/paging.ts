import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

const V = MESSAGES.validation;

/** No one pages through ten thousand screens; the bound keeps OFFSET cheap. */
export const MAX_PAGE = 10_000;

/**
 * The paging fields every admin list takes (spread into its query object): `page` from 1 and
 * `pageSize` up to the list's own maximum, both with defaults.
 */
export function pageFields(sizes: { defaultSize: number; maxSize: number }) {
  return {
    page: z.number({ error: V.page }).int(V.page).min(1, V.page).max(MAX_PAGE, V.page).default(1),
    pageSize: z
      .number({ error: V.pageSize })
      .int(V.pageSize)
      .min(1, V.pageSize)
      .max(sizes.maxSize, V.pageSize)
      .default(sizes.defaultSize),
  };
}

/**
 * One page of a list as every admin list answers it: the items, the total and where it is (a list
 * too large to count answers a lower bound with `totalIsEstimate`).
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** Present and true when `total` is a lower bound (more match; counting them all would be slow). */
    totalIsEstimate: z.boolean().optional(),
  });
}

export type TPage<T> = { items: T[]; total: number; page: number; pageSize: number; totalIsEstimate?: boolean };

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requestObject } from '../../shared/schemas/common.ts';
import { pageFields } from '../../shared/schemas/paging.ts';
import { pageSizeFromLimit, readPage, REST_PAGE_PARAMS } from './paging.ts';

describe('readPage', () => {
  it('asks the repository for the page window and answers the items with where they are', async () => {
    const windows: Array<{ limit: number; offset: number }> = [];
    const page = await readPage(
      { page: 3, pageSize: 10 },
      20,
      async (window) => {
        windows.push(window);
        return { rows: [{ n: 21 }, { n: 22 }], total: 22 };
      },
      (row) => `row ${row.n}`,
    );
    expect(windows).toEqual([{ limit: 10, offset: 20 }]);
    expect(page).toEqual({ items: ['row 21', 'row 22'], total: 22, page: 3, pageSize: 10 });
  });

  it('uses the first page and the list default when none is asked', async () => {
    const page = await readPage({}, 20, async (window) => ({ rows: [window], total: 0 }), (row) => row);
    expect(page).toEqual({ items: [{ limit: 20, offset: 0 }], total: 0, page: 1, pageSize: 20 });
  });
});

describe('REST paging parameters', () => {
  const ZQuery = requestObject({ search: z.string().optional(), ...REST_PAGE_PARAMS })
    .transform(pageSizeFromLimit)
    .pipe(requestObject({ search: z.string().optional(), ...pageFields({ defaultSize: 20, maxSize: 100 }) }));

  it('reads digits, takes the spec\'s `limit` as the page size and applies the defaults', () => {
    expect(ZQuery.parse({ page: '2', limit: '50' })).toEqual({ page: 2, pageSize: 50 });
    expect(ZQuery.parse({ page: '2', pageSize: '30', limit: '50' })).toEqual({ page: 2, pageSize: 30 });
    expect(ZQuery.parse({ search: 'anna' })).toEqual({ search: 'anna', page: 1, pageSize: 20 });
  });

  it('refuses what is not a page number or over the list\'s bound', () => {
    for (const query of [{ page: '-1' }, { page: '1.5' }, { page: '0' }, { limit: '101' }, { page: '1e3' }, { page: '20000' }]) {
      expect(ZQuery.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
  });
});

import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { TCertificateFilters } from '@/features/admin-certificates/api/use-admin-certificates.ts';
import { EXPIRING_WITHIN_MAX_DAYS, isCertificateState } from '@/features/admin-certificates/certificate-words.ts';
import { usePageParams } from '@/lib/paging/use-page-params.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';

const COURSE = 'course';
const STATE = 'state';
const WITHIN = 'within';

/** A number of days as the filter takes it: a whole number from 1 to the server's bound, else null. */
export function daysFrom(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  const days = Number(value.trim());
  return days >= 1 && days <= EXPIRING_WITHIN_MAX_DAYS ? days : null;
}

/**
 * The certificate list's search, filters and page, kept in the address (`?q=menon&course=…&state=
 * expiring&within=30&page=2`) as the other admin lists keep theirs, so a reload or a shared link
 * shows the same list. A changed filter starts again from the first page. The days box is read
 * once typing rests; what it holds that is not a number of days is said under it and not asked for.
 */
export function useCertificateFilters() {
  const paging = usePageParams({ searchDelayMs: 300 });
  const [params, setParams] = useSearchParams();
  const courseId = params.get(COURSE) ?? '';
  const stateParam = params.get(STATE);
  const state = isCertificateState(stateParam) ? stateParam : '';
  const expiringWithinDays = daysFrom(params.get(WITHIN));

  const [daysText, setDaysText] = useState(expiringWithinDays === null ? '' : String(expiringWithinDays));
  const settledDays = useDebouncedValue(daysText.trim(), 400);
  const daysInvalid = settledDays !== '' && daysFrom(settledDays) === null;

  const setFilter = useCallback(
    (name: string, value: string) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  useEffect(() => {
    const days = daysFrom(settledDays);
    const wanted = days === null ? '' : String(days);
    if (daysInvalid || wanted === (params.get(WITHIN) ?? '')) return;
    setFilter(WITHIN, wanted);
  }, [settledDays, daysInvalid, params, setFilter]);

  const filters: TCertificateFilters = { search: paging.search, courseId, state, expiringWithinDays };
  return {
    filters,
    paging,
    setCourseId: (value: string) => setFilter(COURSE, value),
    setState: (value: string) => setFilter(STATE, value),
    daysText,
    setDaysText,
    daysInvalid,
    typing: paging.typing || daysText.trim() !== settledDays,
  };
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatCount, formatDateTime, formatDay, formatRupees } from '@/lib/format.ts';

/*
 * lib/format.ts writes out what Intl writes for 'en-IN' (decision 035). Node's Intl and Chromium's
 * carry the same locale data, so Intl here is the reference the screens used before.
 */
const intl = {
  wholeRupees: new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 }),
  rupeesAndPaise: new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 }),
  count: new Intl.NumberFormat('en-IN'),
  day: new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' }),
  calendarDate: new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  moment: new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }),
};

/** Moments from 1950 to 2100, in whole minutes and in odd milliseconds. */
const moments = fc.date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true });
const RUNS = { numRuns: 2000 };

describe('prices, counts and dates, Indian style', () => {
  it('writes the examples people see', () => {
    expect(formatRupees(4500)).toBe('₹4,500');
    expect(formatRupees(124999.5)).toBe('₹1,24,999.50');
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(1.005)).toBe('₹1.01');
    expect(formatCount(1234567)).toBe('12,34,567');
    expect(formatCalendarDate('1990-05-14')).toBe('14 May 1990');
    expect(formatCalendarDate('2026-09-05')).toBe('05 Sept 2026');
    expect(formatCalendarDate('not a date')).toBe('not a date');
    expect(formatDay(null)).toBe('—');
    expect(formatDay('yesterday')).toBe('—');
    expect(formatDateTime('nonsense')).toBe('nonsense');
  });

  it('a price reads as Intl writes it, rupees and paise', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e12 }), (rupees) => {
        expect(formatRupees(rupees)).toBe(intl.wholeRupees.format(rupees));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e11 }), fc.integer({ min: 1, max: 999 }), (rupees, thousandths) => {
        const price = Number(`${rupees}.${String(thousandths).padStart(3, '0')}`);
        fc.pre(!Number.isInteger(price));
        expect(formatRupees(price)).toBe(intl.rupeesAndPaise.format(price));
      }),
      RUNS,
    );
  });

  it('a count reads as Intl writes it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e15 }), (count) => {
        expect(formatCount(count)).toBe(intl.count.format(count));
      }),
      RUNS,
    );
  });

  it('a day and a moment read as Intl writes them, in the viewer’s time zone', () => {
    fc.assert(
      fc.property(moments, (moment) => {
        const iso = moment.toISOString();
        expect(formatDay(iso)).toBe(intl.day.format(moment));
        expect(formatDateTime(iso)).toBe(intl.moment.format(moment));
      }),
      RUNS,
    );
  });

  it('a calendar date reads as Intl writes it for UTC, whatever the viewer’s zone', () => {
    fc.assert(
      fc.property(moments, (moment) => {
        const isoDate = moment.toISOString().slice(0, 10);
        expect(formatCalendarDate(isoDate)).toBe(intl.calendarDate.format(new Date(`${isoDate}T00:00:00Z`)));
      }),
      RUNS,
    );
  });
});

/*
 * Prices and dates as the academy writes them: the Indian locale (spec section 9).
 */

/**
 * A formatter made on first use. Making one loads the locale's data: tens of milliseconds of the
 * main thread each, which at the module's top level every screen loading this file paid before
 * its first render, whether it showed a price or a date or not (decision 032).
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const wholeRupees = onFirstUse(() => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 }));
const rupeesAndPaise = onFirstUse(() => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 }));

/** A price in rupees, Indian style: "₹4,500", or "₹1,24,999.50" when it has paise. */
export function formatRupees(price: number): string {
  return Number.isInteger(price) ? wholeRupees().format(price) : rupeesAndPaise().format(price);
}

const day = onFirstUse(() => new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' }));

/** The day of a moment (registered, requested, approved): "22 Nov 2026"; a dash when there is none. */
export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : day().format(date);
}

// Calendar dates (date of birth, expiry dates) are stored as YYYY-MM-DD and shown for UTC, so
// nobody's birthday moves a day with their time zone.
const calendarDate = onFirstUse(() => new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const moment = onFirstUse(() => new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }));

/** "14 May 1990" for "1990-05-14"; the input unchanged when it is not a date. */
export function formatCalendarDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  return calendarDate().format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
}

/** A timestamp (created, updated) in the viewer's time zone, Indian style. */
export function formatDateTime(isoTimestamp: string): string {
  const date = new Date(isoTimestamp);
  return Number.isNaN(date.getTime()) ? isoTimestamp : moment().format(date);
}

/** A length of video as a player shows it: "0:07", "12:05", "1:02:03"; a dash when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

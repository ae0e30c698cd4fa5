/*
 * Dates in the Indian locale (spec section 9). Calendar dates (date of birth, expiry dates) are
 * stored as YYYY-MM-DD and shown for UTC, so nobody's birthday moves a day with their time zone.
 */
const calendarDate = new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
const moment = new Intl.DateTimeFormat('en-IN', { day: '2-digit', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** "14 May 1990" for "1990-05-14"; the input unchanged when it is not a date. */
export function formatCalendarDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  return calendarDate.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
}

/** A timestamp (created, updated) in the viewer's time zone, Indian style. */
export function formatDateTime(isoTimestamp: string): string {
  const date = new Date(isoTimestamp);
  return Number.isNaN(date.getTime()) ? isoTimestamp : moment.format(date);
}

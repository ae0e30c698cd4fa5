/*
 * Calendar days as YYYY-MM-DD strings (UTC), for dates that are days, not instants: a date of
 * birth, a document's expiry, a certificate's last valid day.
 */

/** The UTC calendar day of an instant. */
export function utcDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

function parts(day: string): [number, number, number] {
  return day.split('-').map(Number) as [number, number, number];
}

/** The same day `months` later, or that month's last day (31 August + 6 months = 28/29 February). */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = parts(day);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, lastDay));
  return utcDay(target);
}

export function addDays(day: string, days: number): string {
  const [year, month, date] = parts(day);
  return utcDay(new Date(Date.UTC(year, month - 1, date + days)));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = parts(from);
  const [y2, m2, d2] = parts(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
}

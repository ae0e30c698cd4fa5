/*
 * Prices, counts and dates as the academy writes them: the Indian locale (spec section 9).
 *
 * Written out here rather than with Intl: a page's first Intl.NumberFormat or DateTimeFormat loads
 * the locale's data, 30 to 55 ms of the main thread on this machine and four times that on a
 * phone, in the same task as the render that shows the data (decision 035). The output is
 * Intl's for 'en-IN' character for character; format.test.ts holds the two together.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

/** Indian digit grouping of a whole number's digits: the last three, then pairs ("12,34,567"). */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const pairs = head.replace(/\B(?=(\d{2})+$)/g, ',');
  return `${pairs},${digits.slice(-3)}`;
}

/**
 * `value` in hundredths, rounded half away from zero on its decimal digits as JavaScript writes
 * them, as Intl rounds: 1.005 is 101 hundredths, not the 100 that 1.005 * 100 gives.
 */
function hundredths(value: number): number {
  const written = String(Math.abs(value));
  const scaled = written.includes('e') ? Math.abs(value) * 100 : Number(`${written}e2`);
  return Math.round(scaled);
}

/** A count, Indian style: "1,24,999". */
export function formatCount(count: number): string {
  const sign = count < 0 ? '-' : '';
  return sign + groupIndian(String(Math.round(Math.abs(count))));
}

/** A price in rupees, Indian style: "₹4,500", or "₹1,24,999.50" when it has paise. */
export function formatRupees(price: number): string {
  const sign = price < 0 ? '-' : '';
  if (Number.isInteger(price)) return `${sign}₹${groupIndian(String(Math.abs(price)))}`;
  const paise = hundredths(price);
  const rupees = Math.floor(paise / 100);
  return `${sign}₹${groupIndian(String(rupees))}.${String(paise % 100).padStart(2, '0')}`;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** The day of a moment (registered, requested, approved): "22 Nov 2026"; a dash when there is none. */
export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/**
 * "14 May 1990" for "1990-05-14"; the input unchanged when it is not a date. Calendar dates (date
 * of birth, expiry dates) are stored as YYYY-MM-DD and read as UTC, so nobody's birthday moves a
 * day with their time zone.
 */
export function formatCalendarDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return `${twoDigits(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** The time of day in the viewer's time zone: "3:07 pm", or "3:07:12 pm" with the seconds. */
function clockOf(date: Date, withSeconds: boolean): string {
  const hours = date.getHours();
  const seconds = withSeconds ? `:${twoDigits(date.getSeconds())}` : '';
  return `${hours % 12 || 12}:${twoDigits(date.getMinutes())}${seconds} ${hours < 12 ? 'am' : 'pm'}`;
}

/**
 * A timestamp (created, updated) in the viewer's time zone, Indian style: "05 Sept 2026, 3:07 pm";
 * with `seconds`, "05 Sept 2026, 3:07:12 pm" (records seconds apart, such as watch reports).
 */
export function formatDateTime(isoTimestamp: string, options: { seconds?: boolean } = {}): string {
  const date = new Date(isoTimestamp);
  if (Number.isNaN(date.getTime())) return isoTimestamp;
  return `${twoDigits(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${clockOf(date, options.seconds ?? false)}`;
}

/** The time of day of a moment in the viewer's time zone: "2:40 pm". */
export function formatClockTime(isoTimestamp: string): string {
  const date = new Date(isoTimestamp);
  return Number.isNaN(date.getTime()) ? isoTimestamp : clockOf(date, false);
}

/** What is left of a wait, for a countdown: "9 min 05 s", "45 s", "1 h 02 min". */
export function formatWaitLeft(milliseconds: number): string {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  if (seconds < 60) return `${seconds} s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return `${hours} h ${twoDigits(minutes)} min`;
  return `${minutes} min ${twoDigits(seconds % 60)} s`;
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

import { formatCount, formatDateTime, formatDuration } from '@/lib/format.ts';

/**
 * A moment of the record to the second, in the viewer's time zone: "05 Sept 2026, 3:07:12 pm".
 * Reports come seconds apart, so the evidence keeps the seconds that formatDateTime leaves out.
 */
export function formatMoment(iso: string | null): string {
  return iso ? formatDateTime(iso, { seconds: true }) : '—';
}

/**
 * A number of seconds as the server keeps them (to a tenth): "2 s", "29.6 s", "1,234.5 s". The
 * evidence compares seconds with seconds (watched, timed, the part's length), so they stay in one
 * unit; `secondsWithClock` adds the player's reading for longer spans.
 */
export function formatSeconds(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const whole = formatCount(Math.trunc(tenths / 10));
  const fraction = Math.abs(tenths % 10);
  return `${whole}${fraction ? `.${fraction}` : ''} s`;
}

/** "29.6 s", or "601.3 s (10:01)" from a minute up; a dash when unknown. */
export function secondsWithClock(seconds: number | null): string {
  if (seconds === null) return '—';
  return seconds >= 60 ? `${formatSeconds(seconds)} (${formatDuration(seconds)})` : formatSeconds(seconds);
}

/** The time between two moments, as a person says it: "45 s", "1 min 35 s", "1 h 2 min 5 s". */
export function formatElapsed(fromIso: string, toIso: string | null): string {
  if (!toIso) return '—';
  const total = Math.max(0, Math.round((new Date(toIso).getTime() - new Date(fromIso).getTime()) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts = [hours ? `${hours} h` : '', minutes ? `${minutes} min` : '', `${seconds} s`].filter(Boolean);
  return hours || minutes ? parts.filter((part) => part !== '0 s').join(' ') : parts.join(' ');
}

/** A reason as the server words it ("ahead of the server's clock"), as a sentence begins. */
export function asSentence(reason: string): string {
  return reason ? reason[0]!.toUpperCase() + reason.slice(1) : reason;
}

/** The letter an option was shown under: A, B, C… */
export function optionLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

import { useEffect, useState } from 'react';

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * The time of day of a moment in the viewer's time zone, as the academy writes it: "2:40 pm".
 * Written out rather than with Intl, as lib/format.ts does (decision 035).
 */
export function formatClockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const hours = date.getHours();
  return `${hours % 12 || 12}:${twoDigits(date.getMinutes())} ${hours < 12 ? 'am' : 'pm'}`;
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

/** The current time, renewed every second while `running` (a countdown on screen). */
export function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

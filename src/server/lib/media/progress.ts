export type TProgressListener = (percent: number) => void | Promise<void>;

/** Often enough for a live bar, rarely enough that each report may be a database or Redis write. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Turns ffmpeg's `-progress` lines into whole percentages of `durationSeconds`: never going back,
 * at most one report per `intervalMs`, and 99 at most until `finish()` says the files are in
 * place, so 100 always means ready. A listener that throws or rejects does not stop the work:
 * progress is for display.
 */
export function createProgressReporter(
  durationSeconds: number,
  listener: TProgressListener | undefined,
  options: { intervalMs?: number; now?: () => number } = {},
) {
  const intervalMs = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const now = options.now ?? (() => performance.now());
  let reported = -1;
  let reportedAt = Number.NEGATIVE_INFINITY;

  function report(percent: number, always: boolean) {
    if (!listener || percent <= reported) return;
    if (!always && now() - reportedAt < intervalMs) return;
    reported = percent;
    reportedAt = now();
    try {
      void Promise.resolve(listener(percent)).catch(() => {});
    } catch {
      // display only; see above
    }
  }

  return {
    /** One line of ffmpeg's `-progress` output; only `out_time_us` counts. */
    readLine(line: string) {
      const match = /^out_time_us=(\d+)$/.exec(line);
      if (!match || !(durationSeconds > 0)) return;
      const seconds = Number(match[1]) / 1_000_000;
      report(Math.min(99, Math.floor((seconds / durationSeconds) * 100)), false);
    },
    finish() {
      report(100, true);
    },
  };
}

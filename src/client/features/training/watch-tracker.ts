/** A stretch of a video, in seconds of the video. */
export type TSpan = { from: number; to: number };
/** What to send: a span played, or (from = to, `start`) that playback starts there. */
export type TReport = TSpan & { start?: true };

/** Spans shorter than this are not worth a report (rounding of the player's clock). */
const MIN_REPORT_SECONDS = 0.05;
/** How far behind its last reading the playhead may be before it counts as a jump back. */
const BACKWARD_TOLERANCE_SECONDS = 0.05;
/**
 * The server credits no more than the time it saw pass since its last report (+ 2 s over the whole
 * viewing). Measured from when the answer arrived here (after the server recorded it), with a
 * little less slack, a report stays inside that; what does not fit waits for the next report.
 */
const REAL_TIME_FACTOR = 1;
const SLACK_SECONDS = 1.5;

/**
 * Whether the playhead moving by `delta` seconds of video in `wallSeconds` of real time is plain
 * playback. Players report the time about four times a second; a larger step is a jump.
 */
function isPlayback(delta: number, wallSeconds: number): boolean {
  return delta >= -BACKWARD_TOLERANCE_SECONDS && delta <= wallSeconds * 1.5 + 0.5;
}

/** `span` without `cut`: none, one or two pieces, in order. */
function subtract(span: TSpan, cut: TSpan): TSpan[] {
  if (cut.to <= span.from || cut.from >= span.to) return [span];
  const pieces: TSpan[] = [];
  if (cut.from > span.from) pieces.push({ from: span.from, to: cut.from });
  if (cut.to < span.to) pieces.push({ from: cut.to, to: span.to });
  return pieces;
}

/** Sorted, with overlapping and touching spans joined (never across a gap: that was not watched). */
function normalize(spans: readonly TSpan[]): TSpan[] {
  const sorted = spans.filter((span) => span.to > span.from).sort((a, b) => a.from - b.from);
  const merged: TSpan[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.from <= last.to) last.to = Math.max(last.to, span.to);
    else merged.push({ ...span });
  }
  return merged;
}

export type TWatchTrackerOptions = {
  /** When tracking starts (ms, the clock the other calls use). */
  startedAtMs: number;
};

/**
 * What one learner actually played of one video, and what of it the server has not yet accepted.
 *
 * Playback is followed through the player's time readings: a reading just after the last one
 * extends the open span; a jump (seek, skip) closes it and starts another where playback resumes,
 * so time that was skipped is never claimed. Spans the server has not accepted (a failed send, the
 * ship offline) stay and are sent again, joined with what was played next. A report never claims
 * more video than the server's rule allows for the real time since the last accepted one, so a
 * backlog is not refused as too fast; what does not fit waits for the next report.
 *
 * Plain state and no timers: the caller feeds it readings and clock values and does the sending.
 */
export function createWatchTracker({ startedAtMs }: TWatchTrackerOptions) {
  /** Closed spans not yet accepted. */
  let closed: TSpan[] = [];
  /** The span being played now, if playback is running. */
  let open: TSpan | null = null;
  let lastReadingAtMs = startedAtMs;
  let lastAcceptedAtMs: number | null = null;
  /**
   * Where playback started after a stop, until the server has been told (it opens the server's
   * clock), and what was played before it and still owed: that goes first.
   */
  let pendingStart: { position: number; before: TSpan[] } | null = null;

  function close() {
    if (open && open.to > open.from) closed = normalize([...closed, open]);
    open = null;
  }

  /** A report is no longer owed (taken or refused for good). */
  function settle(report: TReport) {
    if (report.start) {
      pendingStart = null;
      return;
    }
    forget(report);
    if (pendingStart) pendingStart.before = pendingStart.before.flatMap((span) => subtract(span, report));
  }

  function unsent(): TSpan[] {
    return normalize(open ? [...closed, open] : closed);
  }

  function forget(report: TSpan) {
    closed = closed.flatMap((span) => subtract(span, report));
    if (!open) return;
    const pieces = subtract(open, report);
    // Playback goes on from the open span's end: that piece stays open, any other is closed.
    const tail = pieces[pieces.length - 1];
    if (tail && tail.to === open.to) {
      closed = normalize([...closed, ...pieces.slice(0, -1)]);
      open = tail;
    } else {
      closed = normalize([...closed, ...pieces]);
      open = { from: open.to, to: open.to };
    }
  }

  return {
    /** Playback is running and the playhead is at `position` ('playing', and each 'timeupdate'). */
    observe(position: number, atMs: number): void {
      if (open && isPlayback(position - open.to, (atMs - lastReadingAtMs) / 1000)) {
        open.to = Math.max(open.to, position);
      } else {
        close();
        open = { from: position, to: position };
      }
      lastReadingAtMs = atMs;
    },

    /** Playback stopped (pause, end): the open span takes the last reading, if it follows on, and closes. */
    stop(position: number | undefined, atMs: number): void {
      if (open && position !== undefined && isPlayback(position - open.to, (atMs - lastReadingAtMs) / 1000)) {
        open.to = Math.max(open.to, position);
      }
      close();
      lastReadingAtMs = atMs;
    },

    /**
     * Playback starts after a stop (or for the first time): the server is told before the next
     * span, so the time paused is not counted as playing and the time playing is.
     */
    begin(position: number): void {
      pendingStart = { position, before: normalize(closed).filter((span) => span.to - span.from >= MIN_REPORT_SECONDS) };
    },

    /** The playhead jumps (seeking): the open span ends where it was; the next reading starts another. */
    jump(): void {
      close();
    },

    /** Spans played and not yet accepted, sorted and joined. */
    unsent,

    /**
     * The next report to send, or null when there is nothing (worth) sending now: what was played
     * before a stop, then the start of playback, then the first unsent span, cut to the real time
     * since the last accepted report.
     */
    nextReport(atMs: number): TReport | null {
      if (pendingStart !== null && pendingStart.before.length === 0) {
        return { from: pendingStart.position, to: pendingStart.position, start: true };
      }
      const first = (pendingStart !== null ? pendingStart.before : unsent())[0];
      if (!first) return null;
      // Before any accepted report: no more than has been played since tracking started, at most.
      const allowed =
        lastAcceptedAtMs === null
          ? (atMs - startedAtMs) / 1000
          : ((atMs - lastAcceptedAtMs) / 1000) * REAL_TIME_FACTOR + SLACK_SECONDS;
      // Whole milliseconds, rounded down so a report never reaches past what was played.
      const to = Math.min(first.to, Math.floor((first.from + Math.max(0, allowed)) * 1000) / 1000);
      return to - first.from >= MIN_REPORT_SECONDS ? { from: first.from, to } : null;
    },

    /** The server recorded `report` (`atMs`: when its answer arrived): it is no longer owed. */
    accepted(report: TReport, atMs: number): void {
      lastAcceptedAtMs = atMs;
      settle(report);
    },

    /** The server refused `report` for good (locked, deleted, not plausible): sending it again would not help. */
    refused(report: TReport): void {
      settle(report);
    },
  };
}

export type TWatchTracker = ReturnType<typeof createWatchTracker>;

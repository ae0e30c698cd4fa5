/*
 * What the player plays while it has no link, measured for the device's watch records: spans of a
 * part, each with the device's monotonic clock (performance.now()) running only while it plays and
 * its wall clock (Date.now()) at the start and end. A pause, a seek, a stall, the end, a change of
 * part or the page being hidden ends a span; a long play is cut every CHECKPOINT_MS so that a tab
 * closed mid-play loses little. Plain state and no timers: the player feeds it events and clocks.
 */

export type TClosedSpan = { videoId: string; from: number; to: number; startedAt: number; endedAt: number; playedMs: number };

/** A span playing this long is written and a new one goes on from it. */
export const CHECKPOINT_MS = 30_000;
/** How far behind its last reading the playhead may be before it counts as a jump back. */
const BACKWARD_TOLERANCE_SECONDS = 0.05;

type TClocks = { monotonic: () => number; wall: () => number };

type TOpenSpan = { videoId: string; from: number; to: number; startedAt: number; startedMono: number; lastReadingMono: number };

export function createSpanRecorder(clocks: TClocks = { monotonic: () => performance.now(), wall: () => Date.now() }) {
  let open: TOpenSpan | null = null;

  function begin(videoId: string, position: number): void {
    const mono = clocks.monotonic();
    open = { videoId, from: position, to: position, startedAt: clocks.wall(), startedMono: mono, lastReadingMono: mono };
  }

  /** Plain playback from the last reading: the playhead moved no faster than real time allows. */
  function follows(span: TOpenSpan, position: number, mono: number): boolean {
    const delta = position - span.to;
    const wallSeconds = (mono - span.lastReadingMono) / 1000;
    return delta >= -BACKWARD_TOLERANCE_SECONDS && delta <= wallSeconds * 1.5 + 0.5;
  }

  function close(position: number | undefined): TClosedSpan | null {
    const span = open;
    open = null;
    if (!span) return null;
    const mono = clocks.monotonic();
    if (position !== undefined && follows(span, position, mono)) span.to = Math.max(span.to, position);
    return { videoId: span.videoId, from: span.from, to: span.to, startedAt: span.startedAt, endedAt: clocks.wall(), playedMs: Math.round(mono - span.startedMono) };
  }

  return {
    /** Whether a span is open (the part is playing). */
    isOpen: () => open !== null,

    /** Playback runs at `position` ('playing'): a span opens, unless one is open for this part. */
    start(videoId: string, position: number): TClosedSpan | null {
      if (open?.videoId === videoId) return this.observe(position);
      const closed = close(undefined);
      begin(videoId, position);
      return closed;
    },

    /**
     * A time reading while playing: the open span grows; a jump closes it where it was (the skipped
     * stretch is not claimed) and a new one opens at the new place. Returns a span closed by a jump.
     */
    observe(position: number): TClosedSpan | null {
      if (!open) return null;
      const mono = clocks.monotonic();
      if (follows(open, position, mono)) {
        open.to = Math.max(open.to, position);
        open.lastReadingMono = mono;
        return null;
      }
      const videoId = open.videoId;
      const closed = close(undefined);
      begin(videoId, position);
      return closed;
    },

    /** Playback stops (pause, end, seek, stall, another part, the page hidden): the span closes. */
    stop(position?: number): TClosedSpan | null {
      return close(position);
    },

    /** Cuts a span that has played CHECKPOINT_MS: it is closed here and playback goes on in a new one. */
    checkpoint(position: number, force = false): TClosedSpan | null {
      if (!open || (!force && clocks.monotonic() - open.startedMono < CHECKPOINT_MS)) return null;
      const videoId = open.videoId;
      const closed = close(position);
      if (closed) begin(videoId, closed.to);
      if (open && closed) open.startedAt = closed.endedAt;
      return closed;
    },
  };
}


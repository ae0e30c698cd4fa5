import { type SyntheticEvent, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { HEARTBEAT_SECONDS } from '../../../shared/constants.ts';
import type { THeartbeat, THeartbeatResult } from '../../../shared/schemas/training.ts';
import { sendHeartbeatOnLeave, useSendHeartbeat } from '@/features/training/api/send-heartbeat.ts';
import { type TClosedSpan, createSpanRecorder } from '@/features/training/span-recorder.ts';
import { type TWatchTracker, createWatchTracker } from '@/features/training/watch-tracker.ts';
import { httpStatusOf, serverAnswered } from '@/lib/api-errors.ts';
import { runBeforeSync, syncPendingRecords } from '@/lib/offline/sync.ts';
import { type TRecordOwner, appendRecord } from '@/lib/offline/watch-records.ts';

type TVideoEvent = SyntheticEvent<HTMLVideoElement>;

type TWatchReportsOptions = {
  /** The part in the player. */
  part: { id: string } | null;
  /** Each accepted report's answer: the part's watched time, completion and the training's progress. */
  onAnswer: (answer: THeartbeatResult) => void;
  /** A part played to its end, once what was played of it has been reported (or recorded on the device). */
  onEnded: (videoId: string) => void;
  /**
   * The download the part in the player plays from, when it plays from the device: then what is
   * played without a link is kept as signed records on the device (and sent when the link returns).
   */
  device?: TRecordOwner | null;
};

/**
 * Whether the server refused a report for good: it answered, and not with a passing trouble (an
 * expired session is renewed and the call retried by the link; 429 and 5xx pass).
 */
function refusedForGood(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;
}

/**
 * Reports what the learner actually plays to the server (training.heartbeat): that playback starts
 * (which opens the server's clock: credit never runs ahead of it), then every HEARTBEAT_SECONDS
 * while playing, and at once on pause, seek, end, change of part and when the page is hidden or
 * closed. Each part has its watch tracker (watch-tracker.ts), so what a failed
 * send left unreported (offline at sea) is kept, joined with what follows and sent with the next
 * report, also after moving to another part.
 *
 * A part played from the device (a downloaded course) is reported the same way while there is a
 * link. Without one (the browser says it is offline, or a report found no server) its playing is
 * measured by a span recorder (span-recorder.ts) and kept as signed records on the device
 * (lib/offline/watch-records.ts), written at every pause, seek, stall, end, change of part, the page
 * hidden, and every 30 s of play; they are sent when the link returns (lib/offline/sync.ts).
 * Each moment of play goes one way only: when the link drops mid-play, what the tracker holds
 * unsent stays with it for the next heartbeat (it was measured against the server's clock, and
 * the server's 5-minute allowance covers it when the link returns), and the recorder starts at
 * that moment; when the link returns, the recorder's span closes and the tracker starts afresh
 * from there. Nothing is ever both a heartbeat and a record.
 *
 * Give the returned handlers to the <video>.
 */
export function useWatchReports({ part, onAnswer, onEnded, device = null }: TWatchReportsOptions) {
  const send = useSendHeartbeat();
  const trackers = useRef(new Map<string, TWatchTracker>());
  const positions = useRef(new Map<string, number>());
  const currentId = useRef<string | null>(null);
  const playing = useRef(false);
  const inFlight = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const latest = useRef({ send, onAnswer, onEnded, device });
  useEffect(() => {
    latest.current = { send, onAnswer, onEnded, device };
  });
  const recorder = useRef(createSpanRecorder());
  /** Which way the part in the player is reported: heartbeats, or records on the device. */
  const mode = useRef<'online' | 'offline'>('online');
  /** A report found no server (the browser may still say it is online). */
  const linkDown = useRef(false);
  const switchMode = useRef<(next: 'online' | 'offline') => void>(() => undefined);

  const trackerOf = useCallback((videoId: string) => {
    let tracker = trackers.current.get(videoId);
    if (!tracker) {
      tracker = createWatchTracker({ startedAtMs: Date.now() });
      trackers.current.set(videoId, tracker);
    }
    return tracker;
  }, []);

  /** One report per part with something unreported, one after the other; a call during a round makes another round. */
  const flush = useCallback((): Promise<void> => {
    if (inFlight.current) {
      again.current = true;
      return inFlight.current;
    }
    const round = async () => {
      do {
        again.current = false;
        for (const [videoId, tracker] of trackers.current) {
          let report = tracker.nextReport(Date.now());
          while (report) {
            const beat: THeartbeat = { videoId, from: report.from, to: report.to, position: positions.current.get(videoId) ?? report.to };
            try {
              const answer = await latest.current.send(beat);
              tracker.accepted(report, Date.now());
              latest.current.onAnswer(answer);
              if (linkDown.current) {
                // The link is back: on with heartbeats, and the records kept meanwhile go now.
                linkDown.current = false;
                switchMode.current('online');
                const owner = latest.current.device;
                if (owner) void syncPendingRecords(owner.userId);
              }
            } catch (error) {
              if (refusedForGood(error)) tracker.refused(report);
              else {
                // No answer at all: the link is down; a part from the device goes on as records.
                if (!serverAnswered(error)) {
                  linkDown.current = true;
                  switchMode.current('offline');
                }
                // Otherwise (no answer, server trouble) it stays, to go with the next report.
                return;
              }
            }
            // A start of playback waiting behind what was played before it goes at once, so the
            // server's clock opens when playback did; spans wait for the next period.
            const next = report.start ? null : tracker.nextReport(Date.now());
            report = next?.start ? next : null;
          }
        }
      } while (again.current);
    };
    inFlight.current = round().finally(() => {
      inFlight.current = null;
    });
    return inFlight.current;
  }, []);

  /** The records being written, in order: the end of a part waits for the pause's record before it. */
  const writes = useRef<Promise<void>>(Promise.resolve());
  /** Keeps a span played without a link as a signed record; with a link again, sends what waits. Resolves once every record so far is written. */
  const keep = useCallback((span: TClosedSpan | null): Promise<void> => {
    const owner = latest.current.device;
    if (!span || !owner) return writes.current;
    writes.current = writes.current.then(() =>
      appendRecord(owner, span).then(
        () => {
          if (typeof navigator !== 'undefined' && navigator.onLine) {
            void syncPendingRecords(owner.userId).then((outcome) => {
              if (outcome.reached && linkDown.current) {
                linkDown.current = false;
                switchMode.current('online');
              }
            });
          }
        },
        () => undefined,
      ),
    );
    return writes.current;
  }, []);

  /** The way reports go for a part starting to play now. */
  const wantedMode = () =>
    latest.current.device && (linkDown.current || (typeof navigator !== 'undefined' && navigator.onLine === false)) ? 'offline' : 'online';

  useEffect(() => {
    switchMode.current = (next) => {
      if (next === 'offline' && !latest.current.device) return;
      if (next === 'online' && wantedMode() === 'offline') return;
      if (mode.current === next) return;
      mode.current = next;
      const videoId = currentId.current;
      if (!videoId || !playing.current) return;
      const position = positions.current.get(videoId) ?? 0;
      if (next === 'offline') {
        // What the tracker holds unsent stays for its heartbeat; from here on, records.
        trackerOf(videoId).stop(position, Date.now());
        recorder.current.start(videoId, position);
      } else {
        void keep(recorder.current.stop(position));
        const tracker = trackerOf(videoId);
        tracker.begin(position);
        tracker.observe(position, Date.now());
        void flush();
      }
    };
  });

  // Heartbeats owed from before the link dropped go before the device's records.
  useEffect(() => runBeforeSync(flush), [flush]);

  // The browser says the link went or came back.
  useEffect(() => {
    const onOffline = () => switchMode.current('offline');
    const onOnline = () => {
      linkDown.current = false;
      switchMode.current('online');
      const owner = latest.current.device;
      if (owner) void syncPendingRecords(owner.userId);
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, []);

  const partId = part?.id ?? null;
  // Before the browser can deliver any event of the newly loaded part: the part left behind keeps
  // what was played of it, closed where it was last seen, and it is reported.
  useLayoutEffect(() => {
    currentId.current = partId;
    const all = trackers.current;
    const spans = recorder.current;
    const lastPositions = positions.current;
    return () => {
      if (partId) all.get(partId)?.stop(undefined, Date.now());
      if (partId && spans.isOpen()) void keep(spans.stop(lastPositions.get(partId)));
      playing.current = false;
      void flush();
    };
  }, [partId, flush, keep]);

  // Every period: while playing, and while anything is left unreported (a backlog from offline).
  useEffect(() => {
    const timer = window.setInterval(() => {
      const backlog = [...trackers.current.values()].some((tracker) => tracker.unsent().length > 0);
      if ((playing.current && mode.current === 'online') || backlog) void flush();
      // Offline, a long play is written every 30 s: a closed tab loses little.
      const videoId = currentId.current;
      if (mode.current === 'offline' && playing.current && videoId) void keep(recorder.current.checkpoint(positions.current.get(videoId) ?? 0));
    }, HEARTBEAT_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [flush, keep]);

  // Hidden (another tab, the phone locked): report now. Closed: report with requests that outlive the page.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState !== 'hidden') return;
      void flush();
      const videoId = currentId.current;
      if (videoId && recorder.current.isOpen()) void keep(recorder.current.checkpoint(positions.current.get(videoId) ?? 0, true));
    };
    const onPageHide = () => {
      const now = Date.now();
      // Written as far as the page lets it (IndexedDB may not finish): at most one span is lost.
      if (currentId.current && recorder.current.isOpen()) void keep(recorder.current.stop(positions.current.get(currentId.current)));
      for (const [videoId, tracker] of trackers.current) {
        if (videoId === currentId.current && playing.current) tracker.stop(positions.current.get(videoId), now);
        const report = tracker.nextReport(now);
        if (!report) continue;
        sendHeartbeatOnLeave({ videoId, from: report.from, to: report.to, position: positions.current.get(videoId) ?? report.to });
        tracker.accepted(report, now);
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [flush, keep]);

  const current = () => (currentId.current ? { id: currentId.current, tracker: trackerOf(currentId.current) } : null);

  return {
    /** Whether what is played now is kept on the device (no link) rather than reported. */
    isRecordingOffline: () => mode.current === 'offline',
    /** Whether the player was playing at its last event. */
    isPlaying: () => playing.current,
    /** Where the player last was in a part. */
    lastPosition: (videoId: string) => positions.current.get(videoId),
    handlers: {
      onPlaying: (event: TVideoEvent) => {
        const part = current();
        if (!part) return;
        const position = event.currentTarget.currentTime;
        positions.current.set(part.id, position);
        // From a stop (not a stall or a seek while playing): the server's clock opens now.
        const starting = !playing.current;
        playing.current = true;
        if (starting) mode.current = wantedMode();
        if (mode.current === 'offline') {
          void keep(recorder.current.start(part.id, position));
          return;
        }
        if (starting) part.tracker.begin(position);
        part.tracker.observe(position, Date.now());
        if (starting) void flush();
      },
      onTimeUpdate: (event: TVideoEvent) => {
        const part = current();
        const video = event.currentTarget;
        if (!part) return;
        positions.current.set(part.id, video.currentTime);
        if (video.paused || video.seeking || !playing.current) return;
        if (mode.current === 'offline') void keep(recorder.current.observe(video.currentTime));
        else part.tracker.observe(video.currentTime, Date.now());
      },
      onPause: (event: TVideoEvent) => {
        const part = current();
        if (!part) return;
        playing.current = false;
        if (mode.current === 'offline') {
          void keep(recorder.current.stop(event.currentTarget.currentTime));
          return;
        }
        part.tracker.stop(event.currentTarget.currentTime, Date.now());
        void flush();
      },
      onSeeking: () => {
        const part = current();
        if (!part) return;
        if (mode.current === 'offline') {
          // The playhead is already at the new place: the span ends at its last reading.
          void keep(recorder.current.stop());
          return;
        }
        part.tracker.jump();
        void flush();
      },
      onWaiting: () => {
        // A stall ends an offline span (its clock must not run while nothing plays); 'playing' opens the next.
        if (mode.current === 'offline') void keep(recorder.current.stop());
      },
      onEnded: (event: TVideoEvent) => {
        const part = current();
        if (!part) return;
        playing.current = false;
        positions.current.set(part.id, event.currentTarget.currentTime);
        if (mode.current === 'offline') {
          void keep(recorder.current.stop(event.currentTarget.currentTime)).then(() => latest.current.onEnded(part.id));
          return;
        }
        part.tracker.stop(event.currentTarget.currentTime, Date.now());
        void flush().then(() => latest.current.onEnded(part.id));
      },
    },
  };
}

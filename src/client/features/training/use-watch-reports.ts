import { type SyntheticEvent, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { HEARTBEAT_SECONDS } from '../../../shared/constants.ts';
import type { THeartbeat, THeartbeatResult } from '../../../shared/schemas/training.ts';
import { sendHeartbeatOnLeave, useSendHeartbeat } from '@/features/training/api/send-heartbeat.ts';
import { type TWatchTracker, createWatchTracker } from '@/features/training/watch-tracker.ts';
import { httpStatusOf } from '@/lib/api-errors.ts';

type TVideoEvent = SyntheticEvent<HTMLVideoElement>;

type TWatchReportsOptions = {
  /** The part in the player. */
  part: { id: string } | null;
  /** Each accepted report's answer: the part's watched time, completion and the training's progress. */
  onAnswer: (answer: THeartbeatResult) => void;
  /** A part played to its end, once what was played of it has been reported. */
  onEnded: (videoId: string) => void;
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
 * Give the returned handlers to the <video>.
 */
export function useWatchReports({ part, onAnswer, onEnded }: TWatchReportsOptions) {
  const send = useSendHeartbeat();
  const trackers = useRef(new Map<string, TWatchTracker>());
  const positions = useRef(new Map<string, number>());
  const currentId = useRef<string | null>(null);
  const playing = useRef(false);
  const inFlight = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const latest = useRef({ send, onAnswer, onEnded });
  useEffect(() => {
    latest.current = { send, onAnswer, onEnded };
  });

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
            } catch (error) {
              if (refusedForGood(error)) tracker.refused(report);
              // Otherwise (no answer, server trouble) it stays, to go with the next report.
              else return;
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

  const partId = part?.id ?? null;
  // Before the browser can deliver any event of the newly loaded part: the part left behind keeps
  // what was played of it, closed where it was last seen, and it is reported.
  useLayoutEffect(() => {
    currentId.current = partId;
    const all = trackers.current;
    return () => {
      if (partId) all.get(partId)?.stop(undefined, Date.now());
      playing.current = false;
      void flush();
    };
  }, [partId, flush]);

  // Every period: while playing, and while anything is left unreported (a backlog from offline).
  useEffect(() => {
    const timer = window.setInterval(() => {
      const backlog = [...trackers.current.values()].some((tracker) => tracker.unsent().length > 0);
      if (playing.current || backlog) void flush();
    }, HEARTBEAT_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [flush]);

  // Hidden (another tab, the phone locked): report now. Closed: report with requests that outlive the page.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') void flush();
    };
    const onPageHide = () => {
      const now = Date.now();
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
  }, [flush]);

  const current = () => (currentId.current ? { id: currentId.current, tracker: trackerOf(currentId.current) } : null);

  return {
    /** Whether the player was playing at its last event. */
    isPlaying: () => playing.current,
    /** Where the player last was in a part. */
    lastPosition: (videoId: string) => positions.current.get(videoId),
    handlers: {
      onPlaying: (event: TVideoEvent) => {
        const part = current();
        if (!part) return;
        // From a stop (not a stall or a seek while playing): the server's clock opens now.
        const starting = !playing.current;
        playing.current = true;
        if (starting) part.tracker.begin(event.currentTarget.currentTime);
        part.tracker.observe(event.currentTarget.currentTime, Date.now());
        if (starting) void flush();
      },
      onTimeUpdate: (event: TVideoEvent) => {
        const part = current();
        const video = event.currentTarget;
        if (!part) return;
        positions.current.set(part.id, video.currentTime);
        if (!video.paused && !video.seeking && playing.current) part.tracker.observe(video.currentTime, Date.now());
      },
      onPause: (event: TVideoEvent) => {
        const part = current();
        if (!part) return;
        playing.current = false;
        part.tracker.stop(event.currentTarget.currentTime, Date.now());
        void flush();
      },
      onSeeking: () => {
        const part = current();
        if (!part) return;
        part.tracker.jump();
        void flush();
      },
      onEnded: (event: TVideoEvent) => {
        const part = current();
        if (!part) return;
        playing.current = false;
        positions.current.set(part.id, event.currentTarget.currentTime);
        part.tracker.stop(event.currentTarget.currentTime, Date.now());
        void flush().then(() => latest.current.onEnded(part.id));
      },
    },
  };
}

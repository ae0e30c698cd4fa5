import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { THeartbeat } from '../../../shared/schemas/training.ts';
import { useWatchReports } from '@/features/training/use-watch-reports.ts';
import { trpc } from '@/lib/trpc.ts';
import { fakeTrpcLink, networkError, serverError } from '@/testing/fake-trpc.tsx';

/** What the server does with the next heartbeat: take it, not answer at all, or refuse it. */
type TOutcome = 'accept' | 'offline' | 'refuse';

const server = { beats: [] as THeartbeat[], outcomes: [] as TOutcome[] };

const fakeServer = fakeTrpcLink((_path, input) => {
  const beat = input as THeartbeat;
  server.beats.push(beat);
  const outcome = server.outcomes.shift() ?? 'accept';
  if (outcome === 'offline') throw networkError();
  if (outcome === 'refuse') throw serverError(400, 'Progress was not recorded');
  const progress = { completedVideos: 0, totalVideos: 2, percent: 0 };
  return { videoId: beat.videoId, watchedSeconds: beat.to, completed: false, progress, allCompleted: false };
});

const ended = vi.fn();

function Player({ partId }: { partId: string }) {
  const reports = useWatchReports({ part: { id: partId }, onAnswer: () => {}, onEnded: ended });
  return <video data-testid="player" {...reports.handlers} />;
}

function renderPlayer() {
  const queryClient = new QueryClient();
  const client = trpc.createClient({ links: [fakeServer] });
  const tree = (partId: string) => (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <Player partId={partId} />
      </QueryClientProvider>
    </trpc.Provider>
  );
  const view = render(tree('part-1'));
  const video = view.getByTestId('player') as HTMLVideoElement;
  const state = { currentTime: 0, paused: true, seeking: false };
  for (const key of Object.keys(state) as Array<keyof typeof state>) {
    Object.defineProperty(video, key, { configurable: true, get: () => state[key] });
  }
  let now = Date.now();
  /** The player's events, with its clock and playhead moving as a real one's would. */
  const player = {
    /** Starts playing, and lets the report that playback started be answered, as it is within a moment. */
    async play(at: number) {
      state.currentTime = at;
      state.paused = false;
      fireEvent(video, new Event('playing'));
      await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    },
    /** Plays on to `to` at normal speed, a time reading every quarter second. */
    playTo(to: number) {
      while (state.currentTime < to) {
        now += 250;
        vi.setSystemTime(now);
        state.currentTime = Math.min(to, state.currentTime + 0.25);
        fireEvent(video, new Event('timeupdate'));
      }
    },
    pause() {
      state.paused = true;
      fireEvent(video, new Event('pause'));
    },
    seek(to: number) {
      state.seeking = true;
      state.currentTime = to;
      fireEvent(video, new Event('seeking'));
      state.seeking = false;
    },
    end() {
      state.paused = true;
      fireEvent(video, new Event('pause'));
      fireEvent(video, new Event('ended'));
    },
  };
  return { player, switchTo: (partId: string) => view.rerender(tree(partId)) };
}

/** The spans reported (the starts of playback left out). */
const spans = () => server.beats.filter(({ from, to }) => to > from).map(({ from, to }) => [from, to]);
const starts = () => server.beats.filter(({ from, to }) => to === from).map(({ from }) => from);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  server.beats = [];
  server.outcomes = [];
  ended.mockReset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the reports of what was watched', () => {
  it('reports the span played at a pause, with the position, and the next span after playing on', async () => {
    const { player } = renderPlayer();
    await player.play(0);
    player.playTo(4);
    player.pause();
    // Playback's start opens the server's clock, then the span played.
    await waitFor(() =>
      expect(server.beats).toEqual([
        { videoId: 'part-1', from: 0, to: 0, position: 0 },
        { videoId: 'part-1', from: 0, to: 4, position: 4 },
      ]),
    );
    await player.play(4);
    player.playTo(7);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 4], [4, 7]]));
    // A pause and a new start: the time paused is not counted as playing.
    expect(starts()).toEqual([0, 4]);
  });

  it('keeps a span the server never got, and sends it before the next start of playback', async () => {
    const { player } = renderPlayer();
    server.outcomes = ['accept', 'offline'];
    await player.play(0);
    player.playTo(4);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 4]]));
    await player.play(4);
    player.playTo(9);
    player.pause();
    // What was played before the pause goes first, then the start, then what was played after it.
    await waitFor(() => expect(spans()).toEqual([[0, 4], [0, 4], [4, 9]]));
    expect(server.beats.map(({ from, to }) => [from, to])).toEqual([[0, 0], [0, 4], [0, 4], [4, 4], [4, 9]]);
    // Accepted: nothing is owed any more.
    await player.play(9);
    player.pause();
    await act(() => Promise.resolve());
    expect(spans()).toEqual([[0, 4], [0, 4], [4, 9]]);
  });

  it('closes the span at a seek, and never claims the part skipped', async () => {
    const { player } = renderPlayer();
    await player.play(0);
    player.playTo(3);
    player.seek(40);
    await waitFor(() => expect(spans()).toEqual([[0, 3]]));
    await player.play(40);
    player.playTo(42);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 3], [40, 42]]));
  });

  it('drops a span the server refused for good instead of sending it again and again', async () => {
    const { player } = renderPlayer();
    server.outcomes = ['refuse'];
    await player.play(0);
    player.playTo(3);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 3]]));
    await player.play(3);
    player.playTo(5);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 3], [3, 5]]));
  });

  it('reports the end of a part before saying it ended, and the rest of a part left for another', async () => {
    const { player, switchTo } = renderPlayer();
    await player.play(0);
    player.playTo(6);
    player.end();
    await waitFor(() => expect(ended).toHaveBeenCalledWith('part-1'));
    expect(spans()).toEqual([[0, 6]]);

    await player.play(0);
    player.playTo(2);
    switchTo('part-2');
    await waitFor(() => expect(server.beats.at(-1)).toMatchObject({ videoId: 'part-1', from: 0, to: 2 }));
  });
});

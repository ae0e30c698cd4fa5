import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppRouter } from '../../../server/router.ts';
import type { THeartbeat } from '../../../shared/schemas/training.ts';
import { useWatchReports } from '@/features/training/use-watch-reports.ts';
import { trpc } from '@/lib/trpc.ts';

/** What the server does with the next heartbeat: take it, not answer at all, or refuse it. */
type TOutcome = 'accept' | 'offline' | 'refuse';

const server = { beats: [] as THeartbeat[], outcomes: [] as TOutcome[] };

const fakeServer: TRPCLink<AppRouter> = () => ({ op }) =>
  observable((observer) => {
    const beat = op.input as THeartbeat;
    server.beats.push(beat);
    const outcome = server.outcomes.shift() ?? 'accept';
    Promise.resolve().then(() => {
      if (outcome === 'offline') {
        observer.error(TRPCClientError.from(new TypeError('Failed to fetch')));
        return;
      }
      if (outcome === 'refuse') {
        observer.error(
          TRPCClientError.from({ error: { message: 'Progress was not recorded', code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400 } } }),
        );
        return;
      }
      const progress = { completedVideos: 0, totalVideos: 2, percent: 0 };
      observer.next({ result: { type: 'data', data: { videoId: beat.videoId, watchedSeconds: beat.to, completed: false, progress, allCompleted: false } } });
      observer.complete();
    });
  });

const ended = vi.fn();

function Player({ partId }: { partId: string }) {
  const reports = useWatchReports({ part: { id: partId, watchedSeconds: 30 }, onAnswer: () => {}, onEnded: ended });
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
    play(at: number) {
      state.currentTime = at;
      state.paused = false;
      fireEvent(video, new Event('playing'));
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

const spans = () => server.beats.map(({ from, to }) => [from, to]);

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
    player.play(0);
    player.playTo(4);
    player.pause();
    await waitFor(() => expect(server.beats).toEqual([{ videoId: 'part-1', from: 0, to: 4, position: 4 }]));
    player.play(4);
    player.playTo(7);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 4], [4, 7]]));
  });

  it('keeps a span the server never got, and sends it joined with what was played next', async () => {
    const { player } = renderPlayer();
    server.outcomes = ['offline'];
    player.play(0);
    player.playTo(4);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 4]]));
    player.play(4);
    player.playTo(9);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 4], [0, 9]]));
    // Accepted: nothing is owed any more.
    player.play(9);
    player.pause();
    await act(() => Promise.resolve());
    expect(spans()).toEqual([[0, 4], [0, 9]]);
  });

  it('closes the span at a seek, and never claims the part skipped', async () => {
    const { player } = renderPlayer();
    player.play(0);
    player.playTo(3);
    player.seek(40);
    await waitFor(() => expect(spans()).toEqual([[0, 3]]));
    player.play(40);
    player.playTo(42);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 3], [40, 42]]));
  });

  it('drops a span the server refused for good instead of sending it again and again', async () => {
    const { player } = renderPlayer();
    server.outcomes = ['refuse'];
    player.play(0);
    player.playTo(3);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 3]]));
    player.play(3);
    player.playTo(5);
    player.pause();
    await waitFor(() => expect(spans()).toEqual([[0, 3], [3, 5]]));
  });

  it('reports the end of a part before saying it ended, and the rest of a part left for another', async () => {
    const { player, switchTo } = renderPlayer();
    player.play(0);
    player.playTo(6);
    player.end();
    await waitFor(() => expect(ended).toHaveBeenCalledWith('part-1'));
    expect(spans()).toEqual([[0, 6]]);

    player.play(0);
    player.playTo(2);
    switchTo('part-2');
    await waitFor(() => expect(server.beats.at(-1)).toMatchObject({ videoId: 'part-1', from: 0, to: 2 }));
  });
});

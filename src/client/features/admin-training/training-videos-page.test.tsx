import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TAdminTrainingSet, TAdminVideo } from '../../../shared/schemas/training.ts';
import type { TStaffRole } from '../../../shared/staff-roles.ts';
import { Toaster } from '@/components/ui/sonner.tsx';
import { TRAINING_POLL_MS } from '@/features/admin-training/api/use-training-sets.ts';
import { TrainingVideosPage } from '@/features/admin-training/training-videos-page.tsx';
import { trpc } from '@/lib/trpc.ts';
import { fakeTrpcLink, knowStaffRole, staffMember } from '@/testing/fake-trpc.tsx';

const T = MESSAGES.training;

function part(id: string, serial: number, title: string, status: TAdminVideo['status'], extra: Partial<TAdminVideo> = {}): TAdminVideo {
  const ready = status === 'ready';
  return {
    id,
    serial,
    title,
    status,
    progressPercent: ready ? 100 : 0,
    error: null,
    durationSeconds: ready ? 95 : null,
    posterUrl: ready ? `/api/files/trainingVideo/${id}.jpg?signature=1` : null,
    sources: ready
      ? [
          { height: 720, url: `/api/trainingVideo/stream/${id}/720?signature=1` },
          { height: 360, url: `/api/trainingVideo/stream/${id}/360?signature=1` },
        ]
      : [],
    uploadedAt: '2026-11-20T09:00:00.000Z',
    ...extra,
  };
}

/** The server's training procedures over one course's parts, as the real ones behave. */
const server = {
  staffRole: 'owner' as TStaffRole,
  sets: [] as TAdminTrainingSet[],
  calls: [] as Array<{ path: string; input: unknown }>,
  failLoad: false,
};

function renumbered(videos: TAdminVideo[]): TAdminVideo[] {
  return videos.map((video, index) => ({ ...video, serial: index + 1 }));
}

function answer(path: string, input: Record<string, unknown>) {
  // The signed-in member: the screen offers what their role may do.
  if (path === 'auth.me') return staffMember(server.staffRole);
  server.calls.push({ path, input });
  const set = server.sets[0]!;
  switch (path) {
    case 'training.sets':
      if (server.failLoad) throw TRPCClientError.from({ error: { message: 'Internal error', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } });
      return server.sets;
    case 'training.reorder': {
      const ids = input.videoIds as string[];
      set.videos = renumbered(ids.map((id) => set.videos.find((video) => video.id === id)!));
      return { ...set, message: T.reordered };
    }
    case 'training.deleteVideo':
      set.videos = renumbered(set.videos.filter((video) => video.id !== input.videoId));
      return { message: T.deleted };
    case 'training.retry':
      set.videos = set.videos.map((video) => (video.id === input.videoId ? { ...video, status: 'pending' as const, error: null } : video));
      return { message: T.retried };
    default:
      throw new Error(`unexpected call ${path}`);
  }
}

const fakeServer = fakeTrpcLink(answer);

function renderPage(staffRole?: TStaffRole) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  if (staffRole) {
    // The member the server knows, already in the cache (the role is read again as the screen opens).
    server.staffRole = staffRole;
    knowStaffRole(queryClient, staffRole);
  }
  const client = trpc.createClient({ links: [fakeServer] });
  render(
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/admin-dashboard/All-training-video']}>
          <TrainingVideosPage />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return userEvent.setup();
}

const COURSE = 'Personal Survival Techniques';
const partTitles = (card: HTMLElement) => within(card).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
const reads = () => server.calls.filter((call) => call.path === 'training.sets').length;

beforeEach(() => {
  server.staffRole = 'owner';
  server.calls = [];
  server.failLoad = false;
  server.sets = [
    {
      id: '5e0c1f7a-2b3c-4d5e-8f90-a1b2c3d4e5f6',
      title: COURSE,
      course: { id: '6f1d2a8b-3c4d-4e5f-9a01-b2c3d4e5f6a7', title: COURSE, isActive: true },
      videos: [
        part('v1', 1, 'Lifejacket donning', 'ready'),
        part('v2', 2, 'Muster stations', 'ready'),
        part('v3', 3, 'Damaged recording', 'failed', { error: T.notPlayable }),
      ],
    },
  ];
});

afterEach(() => {
  toast.dismiss();
  vi.useRealTimers();
});

describe('All Uploaded Training Videos', () => {
  it('shows each course as a card with its parts in order, a player for each ready part and the reason a part failed', async () => {
    renderPage();
    const card = await screen.findByRole('article', { name: COURSE });
    expect(partTitles(card)).toEqual(['Lifejacket donning', 'Muster stations', 'Damaged recording']);
    const players = card.querySelectorAll('video');
    expect(players).toHaveLength(2);
    expect(players[0]!.getAttribute('preload')).toBe('none');
    expect(players[0]!.getAttribute('poster')).toContain('v1.jpg');
    expect(players[0]!.getAttribute('src')).toContain('/v1/720');
    expect(within(card).getAllByText('Ready')).toHaveLength(2);
    expect(within(card).getByText('Failed')).toBeTruthy();
    expect(within(card).getByText(T.notPlayable)).toBeTruthy();
    // The first part cannot go up, the last cannot go down.
    expect((within(card).getByRole('button', { name: 'Move up part 1, Lifejacket donning' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(card).getByRole('button', { name: 'Move down part 3, Damaged recording' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('moves a part with the full new order, and the focus follows the part', async () => {
    const user = renderPage();
    const card = await screen.findByRole('article', { name: COURSE });
    await user.click(within(card).getByRole('button', { name: 'Move up part 2, Muster stations' }));

    await screen.findByText(T.reordered);
    const reorder = server.calls.find((call) => call.path === 'training.reorder');
    expect(reorder?.input).toEqual({ setId: server.sets[0]!.id, videoIds: ['v2', 'v1', 'v3'] });
    await waitFor(() => expect(partTitles(card)).toEqual(['Muster stations', 'Lifejacket donning', 'Damaged recording']));
    // Now first, its Up is disabled: the focus is on its Down.
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByRole('button', { name: 'Move down part 1, Muster stations' })));
    expect(screen.getByText('Muster stations is now part 1 of 3.')).toBeTruthy();
  });

  it('deletes a part after the confirm dialog, and the focus goes to its course', async () => {
    const user = renderPage();
    const card = await screen.findByRole('article', { name: COURSE });
    await user.click(within(card).getByRole('button', { name: 'Delete part 1, Lifejacket donning' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete training video' });
    expect(dialog.textContent).toContain('Part 1: Lifejacket donning');
    expect(server.calls.some((call) => call.path === 'training.deleteVideo')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await screen.findByText(T.deleted);
    expect(server.calls.find((call) => call.path === 'training.deleteVideo')?.input).toEqual({ videoId: 'v1' });
    await waitFor(() => expect(partTitles(card)).toEqual(['Muster stations', 'Damaged recording']));
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByRole('heading', { level: 2 })));
  });

  it('retries a failed part, then reads the list every two seconds while a part is prepared, and stops when none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const user = renderPage();
    const card = await screen.findByRole('article', { name: COURSE });
    const before = reads();
    // Nothing is being prepared: no reading again.
    await vi.advanceTimersByTimeAsync(TRAINING_POLL_MS + 300);
    expect(reads()).toBe(before);

    await user.click(within(card).getByRole('button', { name: 'Retry part 3, Damaged recording' }));
    await screen.findByText(T.retried);
    await within(card).findByText('Pending');
    const afterRetry = reads();

    // The transcoder takes it: the list follows its progress.
    server.sets[0]!.videos[2] = { ...server.sets[0]!.videos[2]!, status: 'processing', progressPercent: 40 };
    await within(card).findByText('Processing 40%', {}, { timeout: 3000 });
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(reads()).toBeGreaterThan(afterRetry);

    server.sets[0]!.videos[2] = part('v3', 3, 'Damaged recording', 'ready');
    await waitFor(() => expect(within(card).getAllByText('Ready')).toHaveLength(3), { timeout: 3000 });
    // Announced once the new list has rendered (an effect's own render).
    expect(await screen.findByText(`${COURSE}, part 3, Damaged recording: ready.`)).toBeTruthy();
    const settled = reads();
    await vi.advanceTimersByTimeAsync(TRAINING_POLL_MS + 300);
    expect(reads()).toBe(settled);
  }, 15_000);

  it('says when there are no training videos, with the way to upload some', async () => {
    server.sets[0]!.videos = [];
    renderPage();
    expect(await screen.findByText(T.none)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upload Training Videos' })).toBeTruthy();
  });

  it('says the list failed to load, with a way to try again', async () => {
    server.failLoad = true;
    const user = renderPage();
    expect(await screen.findByText(T.listFailed)).toBeTruthy();
    server.failLoad = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: COURSE })).toBeTruthy();
  });

  it('shows an auditor each course’s parts and players, with no Upload, Move, Delete or Retry', async () => {
    renderPage('auditor');
    const card = await screen.findByRole('article', { name: COURSE });
    expect(partTitles(card)).toEqual(['Lifejacket donning', 'Muster stations', 'Damaged recording']);
    expect(card.querySelectorAll('video')).toHaveLength(2);
    expect(within(card).getByText(T.notPlayable)).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /^(Move up|Move down|Delete|Retry) / })).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Upload Training Videos' })).toBeNull();
  });
});

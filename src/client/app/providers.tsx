import { QueryClient, QueryClientProvider, onlineManager } from '@tanstack/react-query';
import { TRPCClientError, httpBatchLink } from '@trpc/client';
import { useEffect, useMemo, type ReactNode } from 'react';
import { TRPC_MAX_BATCH_SIZE } from '../../shared/constants.ts';
import { Outlet, useLocation } from 'react-router-dom';
import { routeAt } from '@/app/screens.tsx';
import { OfflineNotice } from '@/lib/pwa/offline-notice.tsx';
import { PERSISTED_PROCEDURES } from '@/lib/pwa/persisted-queries.ts';
import { authorizationHeader, sessionLink } from '@/lib/session/session-link.ts';
import { useAccessToken } from '@/lib/session/session.ts';
import { readStoredUser } from '@/lib/session/session-store.ts';
import { trpc } from '@/lib/trpc.ts';
import { wantToaster } from '@/app/toaster-outlet.tsx';

const MAX_RETRIES = 2;

// The screens under these providers are the ones that toast.
wantToaster();

// React Query assumes a network until the browser says 'offline'; a page opened with none must not
// spend its first seconds retrying (its queries wait for the network, showing the kept data). Its
// own listeners start only when a query client mounts, so a link that returned before that (a
// login page opened at sea) would leave it offline, a login waiting for good: listen from here.
if (typeof window !== 'undefined') {
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  });
}

/** HTTP status of a failed call when the server answered, otherwise undefined (network failure). */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof TRPCClientError) {
    const data: unknown = error.data;
    if (data && typeof data === 'object' && 'httpStatus' in data && typeof data.httpStatus === 'number') {
      return data.httpStatus;
    }
  }
  return undefined;
}

/** Client errors (4xx) will not fix themselves, so only network failures and 5xx are retried. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < MAX_RETRIES;
}

function newQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  // The answers the device keeps stay in memory too, even when no screen shows them: the next
  // write of the kept record must not lose a course home visited earlier.
  for (const procedure of PERSISTED_PROCEDURES) client.setQueryDefaults([procedure.split('.')], { gcTime: Number.POSITIVE_INFINITY });
  return client;
}

/**
 * One cache and one client for the whole tab, however many route subtrees mount the providers,
 * for one user at a time: when someone else signs in (or out), the screens get a new, empty cache
 * in the same render, so nothing of the previous user's can show, and the old one is emptied.
 */
let current: { owner: string | null; client: QueryClient; stopPersisting?: () => void } | undefined;

function queryClientOf(owner: string | null): QueryClient {
  if (current?.owner === owner) return current.client;
  const previous = current;
  current = { owner, client: newQueryClient() };
  if (previous) {
    previous.stopPersisting?.();
    // Not during this render: emptying notifies the old cache's listeners.
    queueMicrotask(() => previous.client.clear());
  }
  return current.client;
}

/** Whose data the cache holds: the signed-in user's id, or null for a visitor. */
function useCacheOwner(): string | null {
  const token = useAccessToken();
  return useMemo(() => (token ? (readStoredUser()?._id ?? null) : null), [token]);
}

/**
 * Keeps the signed-in user's answers on the device (lib/pwa/query-persistence.ts, loaded only for
 * a signed-in user) and restores the last ones: the learner's pages open without a network.
 */
function usePersistence(owner: string | null, client: QueryClient): void {
  useEffect(() => {
    const entry = current;
    if (!owner || !entry || entry.client !== client || entry.stopPersisting) return;
    let stop: (() => void) | undefined;
    let stopped = false;
    entry.stopPersisting = () => {
      stopped = true;
      stop?.();
    };
    void import('@/lib/pwa/query-persistence.ts').then(({ persistQueries }) => {
      if (!stopped) stop = persistQueries(client, owner);
    });
  }, [owner, client]);
}

/** Empties the cache: the server's rendering of a page starts from nothing (prerender.tsx). */
export function forgetQueries(): void {
  current?.client.clear();
}

const trpcClient = trpc.createClient({
  links: [sessionLink, httpBatchLink({ url: '/trpc', maxItems: TRPC_MAX_BATCH_SIZE, headers: authorizationHeader })],
});

/** React Query and the tRPC hooks' client. */
export function AppProviders({ children }: { children: ReactNode }) {
  const owner = useCacheOwner();
  const queryClient = queryClientOf(owner);
  usePersistence(owner, queryClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

/** The offline line on the learner's pages (not on the public ones, nor in the admin area). */
function LearnerOfflineNotice() {
  const { pathname } = useLocation();
  return routeAt(pathname)?.area === 'learner' ? <OfflineNotice /> : null;
}

/**
 * A layout route that gives its child routes the API. The router loads it lazily, so pages that
 * never call the server (the home page) do not ship React Query and tRPC before their first paint.
 */
export function DataProvidersRoute() {
  return (
    <AppProviders>
      <LearnerOfflineNotice />
      <Outlet />
    </AppProviders>
  );
}

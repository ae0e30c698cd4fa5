import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError, httpBatchLink } from '@trpc/client';
import type { ReactNode } from 'react';
import { TRPC_MAX_BATCH_SIZE } from '../../shared/constants.ts';
import { Outlet } from 'react-router-dom';
import { authorizationHeader, sessionLink } from '@/lib/session-link.ts';
import { trpc } from '@/lib/trpc.ts';
import { wantToaster } from '@/app/toaster-outlet.tsx';

const MAX_RETRIES = 2;

// The screens under these providers are the ones that toast.
wantToaster();

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

// One cache and one client for the whole tab, however many route subtrees mount the providers.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** Empties the cache: the server's rendering of a page starts from nothing (prerender.tsx). */
export function forgetQueries(): void {
  queryClient.clear();
}

const trpcClient = trpc.createClient({
  links: [sessionLink, httpBatchLink({ url: '/trpc', maxItems: TRPC_MAX_BATCH_SIZE, headers: authorizationHeader })],
});

/** React Query and the tRPC hooks' client. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

/**
 * A layout route that gives its child routes the API. The router loads it lazily, so pages that
 * never call the server (the home page) do not ship React Query and tRPC before their first paint.
 */
export function DataProvidersRoute() {
  return (
    <AppProviders>
      <Outlet />
    </AppProviders>
  );
}

import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../server/router.ts';

/**
 * A plain tRPC client without the session link, for the calls that manage the session itself
 * (refresh, logout): they must never wait on, or trigger, another refresh.
 */
export const sessionClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] });

import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../../server/router.ts';

/** Typed React hooks for the server's tRPC API; only the router's type crosses the boundary. */
export const trpc = createTRPCReact<AppRouter>();

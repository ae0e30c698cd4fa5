import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { getQueryKey } from '@trpc/react-query';
import { observable } from '@trpc/server/observable';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useEffect } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { AppRouter } from '../../server/router.ts';
import type { TAuthUser } from '../../shared/schemas/auth.ts';
import type { TStaffRole } from '../../shared/staff-roles.ts';
import { trpc } from '@/lib/trpc.ts';

/** The academy's details, as the server writes them into the page. */
export const TEST_SITE = {
  name: 'Seaway Maritime Academy',
  tagline: 'Training for seafarers.',
  email: 'training@example.com',
  phone: '+91 22 4000 1234',
  city: 'Mumbai',
  social: { facebook: 'https://facebook.com/example', linkedin: 'https://linkedin.com/example', instagram: 'https://instagram.com/example' },
};

function ensureSiteConfig() {
  if (document.getElementById('site-config')) return;
  const script = document.createElement('script');
  script.id = 'site-config';
  script.type = 'application/json';
  script.textContent = JSON.stringify(TEST_SITE);
  document.head.append(script);
}

/** auth.me's answer for a member of staff with this role: what the admin screens read their actions from. */
export function staffMember(staffRole: TStaffRole): TAuthUser {
  return { id: `staff-${staffRole}`, name: `The ${staffRole}`, email: `${staffRole}@example.com`, role: 'admin', staffRole, verified: true, approved: true };
}

/**
 * The member's auth.me in the cache before the screen draws: a test of what a role is not offered
 * reads the screen with the role already known, not while it loads (when nothing is offered).
 */
export function knowStaffRole(queryClient: QueryClient, staffRole: TStaffRole) {
  queryClient.setQueryData(getQueryKey(trpc.auth.me, undefined, 'query'), staffMember(staffRole));
}

/** What a fake server answers to one procedure call (a value, or a thrown error). */
export type TAnswer = (path: string, input: Record<string, unknown>) => unknown;

/** An error as the server would answer it: its message and HTTP status. */
export function serverError(httpStatus: number, message: string) {
  const code = { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT', 500: 'INTERNAL_SERVER_ERROR' }[httpStatus] ?? 'INTERNAL_SERVER_ERROR';
  return TRPCClientError.from({ error: { message, code: -32000, data: { code, httpStatus } } });
}

/** No answer at all (the link is down). */
export function networkError() {
  return TRPCClientError.from(new TypeError('Failed to fetch'));
}

/**
 * The network layer only: each call goes to `answer`, asynchronously, as over HTTP (the answer is
 * copied, as a server's would be; a thrown error is the call's error). The one fake tRPC link of
 * the client tests.
 */
export function fakeTrpcLink(answer: TAnswer): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        Promise.resolve()
          .then(() => answer(op.path, (op.input ?? {}) as Record<string, unknown>))
          .then(
            (data) => {
              observer.next({ result: { type: 'data', data: structuredClone(data) } });
              observer.complete();
            },
            (error: unknown) => observer.error(error as TRPCClientError<AppRouter>),
          );
      });
}

/** Where the router is: for tests that follow a link or a redirect. */
export const currentLocation = { pathname: '', search: '' };

function LocationProbe() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    Object.assign(currentLocation, { pathname, search });
  }, [pathname, search]);
  return null;
}

/**
 * Renders `element` at `url` under the route `pattern`, with the app's tRPC client talking to
 * `answer` instead of the server. Other addresses render their path, so links can be followed.
 * With `staffRole`, the signed-in member's role is known from the start.
 */
export function renderWithServer(element: ReactNode, { url, pattern, answer, staffRole }: { url: string; pattern: string; answer: TAnswer; staffRole?: TStaffRole }) {
  ensureSiteConfig();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  if (staffRole) knowStaffRole(queryClient, staffRole);
  // The member is who the server knows too: the role is read again as a screen opens.
  const served: TAnswer = staffRole ? (path, input) => (path === 'auth.me' ? staffMember(staffRole) : answer(path, input)) : answer;
  const client = trpc.createClient({ links: [fakeTrpcLink(served)] });
  const view = render(
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[url]}>
          <LocationProbe />
          <Routes>
            <Route path={pattern} element={element} />
            <Route path="*" element={<p>Elsewhere</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return { user: userEvent.setup(), view, queryClient };
}

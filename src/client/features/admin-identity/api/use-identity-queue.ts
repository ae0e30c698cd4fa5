import { keepPreviousData } from '@tanstack/react-query';
import type { TIdentityState } from '../../../../shared/identity.ts';
import { trpc } from '@/lib/trpc.ts';

const PAGE_SIZE = 20;

/** identity.queue: one page of profiles to check, awaiting check first. */
export function useIdentityQueue({ search, page, state }: { search: string; page: number; state: TIdentityState | undefined }) {
  return trpc.identity.queue.useQuery({ search: search || undefined, page, pageSize: PAGE_SIZE, state }, { placeholderData: keepPreviousData });
}

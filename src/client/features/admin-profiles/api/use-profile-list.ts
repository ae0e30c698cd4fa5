import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc.ts';

const PAGE_SIZE = 12;
/** Signed file links live 15 minutes; a list left open refreshes well before. */
const REFRESH_MS = 10 * 60_000;

/** profiles.list: one page of every seafarer's profile, searched on the server. */
export function useProfileList({ search, page }: { search: string; page: number }) {
  return trpc.profiles.list.useQuery(
    { search: search || undefined, page, pageSize: PAGE_SIZE },
    { placeholderData: keepPreviousData, refetchInterval: REFRESH_MS },
  );
}

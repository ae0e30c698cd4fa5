import type { TAuditFilters } from '../../../../shared/schemas/audit.ts';
import { type TFileDownload, downloadWithSession } from '@/lib/download-with-session.ts';
import { trpc } from '@/lib/trpc.ts';

/** audit.search: one page of the trail, newest first, for the filters applied. */
export function useAuditSearch(filters: TAuditFilters, cursor: string | undefined) {
  return trpc.audit.search.useQuery({ ...filters, ...(cursor ? { cursor } : {}) }, { staleTime: 0, retry: false });
}

/** audit.people: who appears in the trail (the person filter's choices). */
export function useAuditPeople() {
  return trpc.audit.people.useQuery(undefined, { staleTime: 60_000 });
}

/** audit.checkChain: walks the whole trail and recomputes every entry's hash. */
export function useCheckChain() {
  return trpc.audit.checkChain.useMutation();
}

/** The search's entries as CSV, with the session (the download is itself recorded). */
export function downloadAuditCsv(filters: TAuditFilters): Promise<TFileDownload> {
  const params = new URLSearchParams(Object.entries(filters).filter((pair): pair is [string, string] => typeof pair[1] === 'string' && pair[1] !== ''));
  return downloadWithSession(`/api/audit/entries.csv?${params.toString()}`, `audit-trail-${new Date().toISOString().slice(0, 10)}.csv`);
}

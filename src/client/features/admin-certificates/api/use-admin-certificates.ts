import type { TCertificateState } from '../../../../shared/schemas/certificate.ts';
import { trpc } from '@/lib/trpc.ts';

/** The list's filters as the address holds them (empty: not filtered). */
export type TCertificateFilters = { search: string; courseId: string; state: TCertificateState | ''; expiringWithinDays: number | null };

/** The filters as the server's query and the CSV's address spell them (absent when not set). */
export function filterQuery({ search, courseId, state, expiringWithinDays }: TCertificateFilters) {
  return {
    ...(search ? { search } : {}),
    ...(courseId ? { courseId } : {}),
    ...(state ? { state } : {}),
    ...(expiringWithinDays !== null ? { expiringWithinDays } : {}),
  };
}

/** certificates.adminList: one page of the certificates matching the filters; the previous page stays up while the next loads. */
export function useAdminCertificates(filters: TCertificateFilters, page: number) {
  return trpc.certificates.adminList.useQuery({ ...filterQuery(filters), page }, { placeholderData: (previous) => previous, staleTime: 0 });
}

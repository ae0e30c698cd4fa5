import { type TCertificateFilters, filterQuery } from '@/features/admin-certificates/api/use-admin-certificates.ts';
import { type TFileDownload, downloadWithSession } from '@/lib/download-with-session.ts';

/** Where the CSV of the list lives: every certificate matching the filters, not only the page on screen. */
export function certificatesCsvUrl(filters: TCertificateFilters): string {
  const query = new URLSearchParams(Object.entries(filterQuery(filters)).map(([name, value]) => [name, String(value)]));
  const text = query.toString();
  return text ? `/api/certificates/list.csv?${text}` : '/api/certificates/list.csv';
}

/** Downloads the CSV of the list with the administrator's session (see downloadWithSession). */
export function downloadCertificatesCsv(filters: TCertificateFilters): Promise<TFileDownload> {
  return downloadWithSession(certificatesCsvUrl(filters), 'certificates.csv');
}

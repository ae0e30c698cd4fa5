import { type TFileDownload, downloadWithSession } from '@/lib/download-with-session.ts';

/** Where the export lives: every attempt matching the search, as a CSV file. */
export function resultsCsvUrl(search: string): string {
  return search ? `/api/submitTest.csv?search=${encodeURIComponent(search)}` : '/api/submitTest.csv';
}

/** Downloads the results export with the administrator's session (see downloadWithSession). */
export function downloadResultsCsv(search: string): Promise<TFileDownload> {
  return downloadWithSession(resultsCsvUrl(search), 'test-results.csv');
}

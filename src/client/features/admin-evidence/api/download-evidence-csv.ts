import { type TFileDownload, downloadWithSession } from '@/lib/download-with-session.ts';

/** A course and the days (YYYY-MM-DD, inclusive) whose certificates the export covers. */
export type TEvidenceRange = { courseId: string; from: string; to: string };

/** Where the export lives: the evidence behind a course's certificates issued on those days, as CSV. */
export function evidenceCsvUrl({ courseId, from, to }: TEvidenceRange): string {
  const query = new URLSearchParams({ courseId, from, to });
  return `/api/certificates/evidence.csv?${query.toString()}`;
}

/** Downloads the evidence export with the administrator's session (see downloadWithSession). */
export function downloadEvidenceCsv(range: TEvidenceRange): Promise<TFileDownload> {
  return downloadWithSession(evidenceCsvUrl(range), `certificate-evidence-${range.from}-to-${range.to}.csv`);
}

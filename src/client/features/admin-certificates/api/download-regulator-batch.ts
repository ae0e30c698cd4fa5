import type { TRegulatorBatchQuery } from '../../../../shared/schemas/certificate.ts';
import { type TFileDownload, downloadWithSession } from '@/lib/download-with-session.ts';

export type TBatchFormat = 'csv' | 'xlsx';

/** Where a batch's file lives: the course's completions issued on those days, as CSV or XLSX. */
export function regulatorBatchUrl({ courseId, from, to }: TRegulatorBatchQuery, format: TBatchFormat): string {
  return `/api/certificates/regulator-batch.${format}?${new URLSearchParams({ courseId, from, to }).toString()}`;
}

/** Downloads the batch with the administrator's session (see downloadWithSession). */
export function downloadRegulatorBatch(query: TRegulatorBatchQuery, format: TBatchFormat): Promise<TFileDownload> {
  return downloadWithSession(regulatorBatchUrl(query, format), `regulator-batch-${query.from}-to-${query.to}.${format}`);
}

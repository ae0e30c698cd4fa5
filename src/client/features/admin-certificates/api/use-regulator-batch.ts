import type { TRegulatorBatchQuery } from '../../../../shared/schemas/certificate.ts';
import { trpc } from '@/lib/trpc.ts';

/** certificates.regulatorBatch: the batch asked for with Preview batch; nothing is asked before. */
export function useRegulatorBatch(query: TRegulatorBatchQuery | null) {
  return trpc.certificates.regulatorBatch.useQuery(query ?? { courseId: '', from: '', to: '' }, { enabled: query !== null, staleTime: 0, retry: false });
}

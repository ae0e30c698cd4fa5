import { useState } from 'react';
import { trpc } from '@/lib/trpc.ts';

export type TPublishOutcome = { ok: true; message: string } | { ok: false };

/**
 * tests.publish / tests.unpublish (two separate calls, spec section 4). The lists reload after
 * either outcome, so a failure shows the test's state as the server has it. `pendingId` is the
 * test whose change is on its way.
 */
export function usePublishTest() {
  const utils = trpc.useUtils();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const reload = () => Promise.all([utils.tests.list.invalidate(), utils.tests.published.invalidate(), utils.overview.figures.invalidate()]);
  const publish = trpc.tests.publish.useMutation({ onSettled: reload });
  const unpublish = trpc.tests.unpublish.useMutation({ onSettled: reload });

  async function setPublished(testId: string, isPublished: boolean): Promise<TPublishOutcome> {
    setPendingId(testId);
    try {
      const result = await (isPublished ? publish : unpublish).mutateAsync({ testId });
      return { ok: true, message: result.message };
    } catch {
      return { ok: false };
    } finally {
      setPendingId(null);
    }
  }

  return { pendingId, setPublished };
}

import { trpc } from '@/lib/trpc.ts';

/**
 * tests.updatePolicy: an existing test's attempts policy. Both lists reload after a change, so
 * every card shows the policy as the server keeps it.
 */
export function useUpdateTestPolicy() {
  const utils = trpc.useUtils();
  return trpc.tests.updatePolicy.useMutation({
    onSuccess: () => Promise.all([utils.tests.list.invalidate(), utils.tests.published.invalidate()]),
  });
}

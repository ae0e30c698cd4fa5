import { TRPCClientError } from '@trpc/client';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { trpc } from '@/lib/trpc.ts';

/**
 * tests.grantAttempts from a results card: the learner may take the test again at once (after the
 * test's wait), without watching the training again; the outcome is said in a toast.
 */
export function useGrantAttempts() {
  const mutation = trpc.tests.grantAttempts.useMutation();
  async function grant(input: { userId: string; courseId: string; attempts?: number }) {
    try {
      const result = await mutation.mutateAsync(input);
      toast.success(result.message, { duration: ADMIN_TOAST_MS });
    } catch (error) {
      toast.error(error instanceof TRPCClientError ? error.message : MESSAGES.tests.grantFailed, { duration: ADMIN_TOAST_MS });
    }
  }
  return { grant, granting: mutation.isPending };
}

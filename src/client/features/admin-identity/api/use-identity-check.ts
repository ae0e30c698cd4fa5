import { TRPCClientError } from '@trpc/client';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { trpc } from '@/lib/trpc.ts';

/** Signed file links live 15 minutes; a check left open refreshes well before. */
const REFRESH_MS = 10 * 60_000;

/** identity.view: the profile with its documents, the accounts sharing a number, and the history. */
export function useIdentityCheck(userId: string) {
  return trpc.identity.view.useQuery({ userId }, { refetchInterval: REFRESH_MS });
}

/**
 * identity.verify and identity.return: the answer replaces the check on screen; a refusal (another
 * check or the learner's change came first) reloads it, and each outcome is said in a toast.
 */
export function useIdentityDecision(userId: string) {
  const utils = trpc.useUtils();
  const settle = {
    onSuccess: (answer: { message: string; view: Parameters<typeof utils.identity.view.setData>[1] }) => {
      utils.identity.view.setData({ userId }, answer.view);
      toast.success(answer.message, { duration: ADMIN_TOAST_MS });
    },
    onError: (error: unknown) => {
      toast.error(error instanceof TRPCClientError ? error.message : 'The decision could not be saved.', { duration: ADMIN_TOAST_MS });
      void utils.identity.view.invalidate({ userId });
    },
    onSettled: () => Promise.all([utils.identity.queue.invalidate(), utils.profiles.invalidate()]),
  };
  const verify = trpc.identity.verify.useMutation(settle);
  const giveBack = trpc.identity.return.useMutation(settle);
  return {
    verify: (input: { version: number; duplicatesAcknowledged: boolean }) => verify.mutateAsync({ userId, ...input }).catch(() => undefined),
    giveBack: (input: { version: number; reason: string }) => giveBack.mutateAsync({ userId, ...input }).catch(() => undefined),
    verifying: verify.isPending,
    returning: giveBack.isPending,
  };
}

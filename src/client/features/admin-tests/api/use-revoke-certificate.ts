import { TRPCClientError } from '@trpc/client';
import { toast } from 'sonner';
import { MESSAGES } from '../../../../shared/messages.ts';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { useRevokeCertificate } from '@/lib/api/certificates.ts';

/**
 * certificates.revoke from a results card: the results reload afterwards (lib/api/certificates.ts),
 * so the card shows the certificate as the server now has it; the outcome is said in a toast.
 */
export function useResultRevoke() {
  const mutation = useRevokeCertificate();
  async function revoke(input: { certificateId: string; reason?: string }) {
    try {
      const certificate = await mutation.mutateAsync(input);
      toast.success(MESSAGES.certificate.revokedDone, { duration: ADMIN_TOAST_MS, description: certificate.number });
    } catch (error) {
      toast.error(error instanceof TRPCClientError ? error.message : MESSAGES.certificate.revokeFailed, { duration: ADMIN_TOAST_MS });
    }
  }
  return { revoke, revoking: mutation.isPending };
}

import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../../shared/constants.ts';
import { MESSAGES } from '../../../../shared/messages.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { useRevokeCertificate } from '@/lib/api/certificates.ts';
import { trpc } from '@/lib/trpc.ts';

const CA = MESSAGES.certificateAdmin;

/**
 * certificates.revoke and certificates.reissue from the list. The list reloads afterwards, so its
 * row shows the state the server now gives; the outcome is said in a toast. Each call resolves to
 * whether it succeeded, so its dialog can close or stay open with the form.
 */
export function useCertificateActions() {
  const utils = trpc.useUtils();
  const revokeCall = useRevokeCertificate();
  const reissueCall = trpc.certificates.reissue.useMutation({
    onSettled: () => Promise.all([utils.certificates.adminList.invalidate(), utils.overview.figures.invalidate()]),
  });

  async function revoke(input: { certificateId: string; reason: string }): Promise<boolean> {
    try {
      const certificate = await revokeCall.mutateAsync(input);
      toast.success(MESSAGES.certificate.revokedDone, { duration: ADMIN_TOAST_MS, description: certificate.number });
      return true;
    } catch (error) {
      toast.error(errorMessage(error, { fallback: MESSAGES.certificate.revokeFailed }), { duration: ADMIN_TOAST_MS });
      return false;
    }
  }

  async function reissue(certificateId: string): Promise<boolean> {
    try {
      const { message, certificate } = await reissueCall.mutateAsync({ certificateId });
      toast.success(message, { duration: ADMIN_TOAST_MS, description: certificate.number });
      return true;
    } catch (error) {
      toast.error(errorMessage(error, { fallback: CA.reissueFailed }), { duration: ADMIN_TOAST_MS });
      return false;
    }
  }

  return { revoke, revoking: revokeCall.isPending, reissue, reissuing: reissueCall.isPending };
}

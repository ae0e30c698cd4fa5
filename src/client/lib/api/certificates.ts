import { trpc } from '@/lib/trpc.ts';

/**
 * certificates.revoke, from the certificate list or a test result's card. Whatever the outcome,
 * every list that shows the certificate (the certificates, the test results) and the overview's
 * figures are read again, so each shows it as the server now has it. The caller says the outcome.
 */
export function useRevokeCertificate() {
  const utils = trpc.useUtils();
  return trpc.certificates.revoke.useMutation({
    onSettled: () => Promise.all([utils.certificates.adminList.invalidate(), utils.tests.results.invalidate(), utils.overview.figures.invalidate()]),
  });
}

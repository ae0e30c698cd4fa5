import { trpc } from '@/lib/trpc.ts';

/** tests.submit: the server scores the open attempt; a pass answers with the certificate's summary. */
export function useSubmitTest() {
  return trpc.tests.submit.useMutation();
}

import { trpc } from '@/lib/trpc.ts';

/** contact.send: delivers a message to the academy's mailbox. */
export function useSendContactMessage() {
  return trpc.contact.send.useMutation();
}

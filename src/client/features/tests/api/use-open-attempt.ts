import { trpc } from '@/lib/trpc.ts';

/**
 * tests.take: starts the learner's attempt (or hands back the open one) and answers with the test,
 * without the answers. A mutation, so it is sent only when the page asks (Start, or resuming an
 * attempt already open), never again behind the learner's back: a call after a submission starts a
 * new attempt. `reset` forgets the attempt, so the next start asks anew.
 */
export function useOpenAttempt() {
  return trpc.tests.take.useMutation();
}
